package dev.sluice.access;

import dev.sluice.api.Limits;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/**
 * A queue's Policy attribute, validated as SetQueueAttributes validates it: its size, its grammar,
 * then SQS's policy quotas (SQS Developer Guide: Amazon SQS policy quotas: 8,192 bytes, 20
 * statements, 7 actions per statement, 50 principals, 10 conditions). Stateless.
 */
public final class QueuePolicy {
  private QueuePolicy() {}

  private static final int MAX_BYTES = Limits.POLICY_MAX_BYTES;
  private static final int MAX_STATEMENTS = Limits.MAX_POLICY_STATEMENTS;
  private static final int MAX_ACTIONS_PER_STATEMENT = Limits.MAX_ACTIONS_PER_PERMISSION;
  private static final int MAX_PRINCIPALS = Limits.MAX_POLICY_PRINCIPALS;
  private static final int MAX_CONDITIONS = Limits.MAX_POLICY_CONDITIONS;

  /**
   * Parses and validates a Policy value. {@code json} parses the text into an object, or gives
   * null when it is not one; it is only called once the size is known to be within the quota.
   * Throws {@link PolicyException}.
   */
  public static PolicyDocument parse(String text, Function<String, Map<String, Object>> json) {
    if (text.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      // AWS's text, from the OverLimit answers quoted in justeattakeaway/JustSaying#211 and
      // BishopFox/cloudfoxable#29.
      throw PolicyException.overLimit("Submitted policy is over max allowed size.");
    }
    Map<String, Object> object = json.apply(text);
    if (object == null) {
      throw PolicyException.invalid("the policy is not a JSON object");
    }
    PolicyDocument doc = PolicyDocument.parse(object, true);
    checkQuotas(doc);
    return doc;
  }

  /**
   * The counting quotas, in the order of AWS's quota table. The statement and action texts are
   * AWS's (OverLimit answers quoted in dapr/components-contrib#1780 and
   * ministryofjustice/cloud-platform-environments#9082); the principal and condition ones could
   * not be confirmed and follow the same pattern.
   */
  private static void checkQuotas(PolicyDocument doc) {
    int statements = doc.statements().size();
    if (statements > MAX_STATEMENTS) {
      throw PolicyException.overLimit(
          statements + " statements were found in the submitted policy, max allowed is " + MAX_STATEMENTS);
    }
    int principals = 0;
    int conditions = 0;
    for (PolicyStatement s : doc.statements()) {
      if (s.actionCount() > MAX_ACTIONS_PER_STATEMENT) {
        throw PolicyException.overLimit(s.actionCount() + " actions were found in a statement from the submitted"
            + " policy, max allowed is " + MAX_ACTIONS_PER_STATEMENT);
      }
      principals += s.principalCount();
      conditions += s.conditionCount();
    }
    if (principals > MAX_PRINCIPALS) {
      throw PolicyException.overLimit(
          principals + " principals were found in the submitted policy, max allowed is " + MAX_PRINCIPALS);
    }
    if (conditions > MAX_CONDITIONS) {
      throw PolicyException.overLimit(
          conditions + " conditions were found in the submitted policy, max allowed is " + MAX_CONDITIONS);
    }
  }
}
