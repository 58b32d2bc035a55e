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

/**
 * AddPermission and RemovePermission (AWS API reference: AddPermission): statements kept in the queue's
 * Policy attribute, shaped as AWS writes them. Called on the shard event loop that owns the queue.
 */
public final class QueuePermissions {
  private QueuePermissions() {}

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
      throw new SqsException(ErrorCode.OVER_LIMIT, "7 Actions per statement is the limit.");
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
    if (statements.size() >= Limits.MAX_POLICY_STATEMENTS) {
      throw new SqsException(ErrorCode.OVER_LIMIT, "20 statements per policy is the limit.");
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
