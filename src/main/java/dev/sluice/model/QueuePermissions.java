package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * AddPermission and RemovePermission (AWS API reference: AddPermission): statements kept in the queue's
 * Policy attribute, shaped as AWS writes them. Called on the shard event loop that owns the queue.
 */
public final class QueuePermissions {
  private QueuePermissions() {}

  private static final Pattern ACCOUNT_ID = Pattern.compile("\\d{12}");

  private static final Set<String> ACTIONS =
      Set.of(
          "*", "SendMessage", "ReceiveMessage", "DeleteMessage", "ChangeMessageVisibility",
          "GetQueueAttributes", "GetQueueUrl", "PurgeQueue", "ListDeadLetterSourceQueues",
          "ListQueueTags", "SetQueueAttributes", "TagQueue", "UntagQueue", "DeleteQueue",
          "SendMessageBatch", "DeleteMessageBatch", "ChangeMessageVisibilityBatch",
          "StartMessageMoveTask", "ListMessageMoveTasks", "CancelMessageMoveTask");

  public static void add(QueueState q, String label, List<String> accounts, List<String> actions, long nowMillis) {
    checkLabel(label);
    if (accounts == null || accounts.isEmpty()) {
      throw SqsException.missingParameter("AWSAccountIds");
    }
    if (actions == null || actions.isEmpty()) {
      throw SqsException.missingParameter("Actions");
    }
    if (actions.size() > Limits.MAX_ACTIONS_PER_PERMISSION) {
      // AddPermission's own wording, not the Policy attribute's (moto's SQS tests,
      // test_add_permission_errors, and the SQS emulators that copy them).
      throw new SqsException(ErrorCode.OVER_LIMIT,
          actions.size() + " Actions were found, maximum allowed is " + Limits.MAX_ACTIONS_PER_PERMISSION + ".");
    }
    for (String a : actions) {
      if (!ACTIONS.contains(a)) {
        throw SqsException.invalidValue(
            a, "ActionName", "Please refer to the appropriate WSDL for a list of valid actions.");
      }
    }
    String arn = q.metadata().arn();
    List<Object> statements = statements(q);
    for (Object s : statements) {
      if (s instanceof Map<?, ?> m && label.equals(m.get("Sid"))) {
        throw SqsException.invalidValue(label, "Label", "Already exists.");
      }
    }
    // After the label, as Sluice always answered a taken label first; AWS's order is not known.
    checkAccounts(accounts);
    if (statements.size() >= Limits.MAX_POLICY_STATEMENTS) {
      // Not confirmed against AWS: the wording of the Actions limit above, as the
      // Inqnuam/local-aws-sqs tests (add-permission.test.ts) have it.
      throw new SqsException(ErrorCode.OVER_LIMIT, (statements.size() + 1)
          + " Statements were found, maximum allowed is " + Limits.MAX_POLICY_STATEMENTS + ".");
    }
    Map<String, Object> statement = new LinkedHashMap<>();
    statement.put("Sid", label);
    statement.put("Effect", "Allow");
    statement.put("Principal", Map.of("AWS", oneOrMany(accounts, a -> "arn:aws:iam::" + a + ":root")));
    statement.put("Action", oneOrMany(actions, a -> "SQS:" + a));
    statement.put("Resource", arn);
    statements.add(statement);
    writePolicy(q, arn, statements, nowMillis);
  }

  public static void remove(QueueState q, String label, long nowMillis) {
    if (label == null || label.isEmpty()) {
      throw SqsException.missingParameter("Label");
    }
    List<Object> statements = statements(q);
    boolean removed = statements.removeIf(s -> s instanceof Map<?, ?> m && label.equals(m.get("Sid")));
    if (!removed) {
      throw SqsException.invalidValue(label, "Label", "can't find label.");
    }
    writePolicy(q, q.metadata().arn(), statements, nowMillis);
  }

  /**
   * AWSAccountIds must be 12-digit account ids: AWS cannot verify {@code *}, an IAM user ARN or a
   * short number as an account, and answers with the whole list in brackets ("Value [*] for
   * parameter PrincipalId is invalid. Reason: Unable to verify.", as quoted in
   * amazon-archives/aws-sdk-core-ruby#138 and aws/aws-cli#7416; moto's test_add_permission_errors
   * gives "Value []" for an empty list). A policy set through SetQueueAttributes may name more.
   */
  private static void checkAccounts(List<String> accounts) {
    for (String a : accounts) {
      if (a == null || !ACCOUNT_ID.matcher(a).matches()) {
        throw SqsException.invalidValue(
            "[" + String.join(", ", accounts) + "]", "PrincipalId", "Unable to verify.");
      }
    }
  }

  private static void checkLabel(String label) {
    if (label == null || label.isEmpty()) {
      throw SqsException.missingParameter("Label");
    }
    boolean ok = label.length() <= Limits.PERMISSION_LABEL_MAX_LENGTH
        && label.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_'));
    if (!ok) {
      throw SqsException.invalidValue(
          label, "Label", "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.");
    }
  }

  private static List<Object> statements(QueueState q) {
    String policy = q.attributes().policy();
    Map<String, Object> doc = policy == null ? null : JsonText.parseObject(policy);
    Object s = doc == null ? null : doc.get("Statement");
    if (s instanceof List<?> l) {
      return new ArrayList<>(l);
    }
    List<Object> out = new ArrayList<>();
    if (s != null) {
      out.add(s);
    }
    return out;
  }

  /** A plain string when there is one value, an array when several: as AWS writes policies. */
  private static Object oneOrMany(List<String> values, UnaryOperator<String> f) {
    if (values.size() == 1) {
      return f.apply(values.get(0));
    }
    return values.stream().map(f).toList();
  }

  private static void writePolicy(QueueState q, String arn, List<Object> statements, long nowMillis) {
    if (statements.isEmpty()) {
      q.setAttributes(Map.of(QueueAttributes.POLICY, ""), nowMillis);
      return;
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("Version", "2008-10-17");
    doc.put("Id", arn + "/SQSDefaultPolicy");
    doc.put("Statement", statements);
    q.setAttributes(Map.of(QueueAttributes.POLICY, JsonText.write(doc)), nowMillis);
  }
}
