package dev.sluice.model;

import dev.sluice.api.QueueKey;

/**
 * Queue ARNs, {@code arn:aws:sqs:<region>:<account>:<name>} (AWS API reference: SetQueueAttributes),
 * from a queue's key and back. Every ARN carries its queue's own region and account.
 */
public final class QueueArns {
  private static final String PREFIX = "arn:aws:sqs:";

  private QueueArns() {}

  public static String arnOf(QueueKey key) {
    return PREFIX + key.region() + ":" + key.accountId() + ":" + key.name();
  }

  /**
   * The queue an ARN names, or null when it is not a queue ARN: another partition or service, or a
   * region, account or name that is empty or holds a colon.
   */
  public static QueueKey keyOf(String arn) {
    if (arn == null || !arn.startsWith(PREFIX)) {
      return null;
    }
    String[] parts = arn.substring(PREFIX.length()).split(":", -1);
    if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
      return null;
    }
    return new QueueKey(parts[1], parts[0], parts[2]);
  }
}
