package dev.sluice.model;

import dev.sluice.api.SqsException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A queue's RedrivePolicy (AWS API reference: SetQueueAttributes; the SQS dead-letter queues guide): where
 * messages go once they have been
 * received {@code maxReceiveCount} times. Parsed from the attribute's JSON, which may give the
 * count as a number or a numeric string, and shown in canonical form with a numeric count.
 * Whether the target exists and lets this queue in is checked by the engine, across shards.
 */
public record RedrivePolicy(String deadLetterTargetArn, int maxReceiveCount) {
  public static final String NAME = "RedrivePolicy";
  static final int MAX_RECEIVE_COUNT_MAX = 1000;

  /** Parses and validates the attribute value; InvalidParameterValue when it is not a valid policy. */
  public static RedrivePolicy parse(String value, boolean fifoSource) {
    Map<String, Object> json = JsonText.parseObject(value);
    if (json == null) {
      throw invalid(value, "Redrive policy is not a valid JSON map.");
    }
    for (String key : json.keySet()) {
      if (!key.equals("deadLetterTargetArn") && !key.equals("maxReceiveCount")) {
        throw invalid(value, "Only following attributes are supported: [deadLetterTargetArn, maxReceiveCount].");
      }
    }
    if (!(json.get("deadLetterTargetArn") instanceof String arn) || arn.isEmpty()) {
      throw invalid(value, "Redrive policy does not contain mandatory attribute: deadLetterTargetArn.");
    }
    if (!isQueueArn(arn)) {
      // Rejected before any lookup, with the text AWS answers.
      throw invalid(value, "Invalid value for deadLetterTargetArn.");
    }
    Object count = json.get("maxReceiveCount");
    if (count == null) {
      throw invalid(value, "Redrive policy does not contain mandatory attribute: maxReceiveCount.");
    }
    int n = receiveCount(count);
    if (n < 1 || n > MAX_RECEIVE_COUNT_MAX) {
      throw invalid(value, "Invalid value for maxReceiveCount: " + count
          + ", valid values are from 1 to 1000 both inclusive.");
    }
    if (fifoSource != arn.endsWith(".fifo")) {
      throw invalid(value, "Dead-letter queue must be same type of queue as the source.");
    }
    return new RedrivePolicy(arn, n);
  }

  /** {@code arn:<partition>:sqs:<region>:<account>:<name>}. */
  private static boolean isQueueArn(String arn) {
    String[] parts = arn.split(":", -1);
    return parts.length == 6 && parts[0].equals("arn") && parts[2].equals("sqs")
        && Arrays.stream(parts).noneMatch(String::isEmpty);
  }

  private static int receiveCount(Object count) {
    String text = count.toString();
    if (text.isEmpty() || text.length() > 9 || !text.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Integer.parseInt(text);
  }

  static SqsException invalid(String value, String reason) {
    return SqsException.invalidValue(value, NAME, reason);
  }

  /** The canonical JSON GetQueueAttributes shows. */
  public String toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("deadLetterTargetArn", deadLetterTargetArn);
    m.put("maxReceiveCount", maxReceiveCount);
    return JsonText.write(m);
  }
}
