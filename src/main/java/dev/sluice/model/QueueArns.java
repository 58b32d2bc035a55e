package dev.sluice.model;

/**
 * Queue ARNs ({@code arn:aws:sqs:<region>:<account>:<name>}, AWS API reference: SetQueueAttributes) of this server's
 * account and region, and back to queue names. Immutable: one instance serves every shard.
 */
public final class QueueArns {
  private final String prefix;

  public QueueArns(String region, String accountId) {
    this.prefix = "arn:aws:sqs:" + region + ":" + accountId + ":";
  }

  public String arnOf(String queueName) {
    return prefix + queueName;
  }

  /** The queue name an ARN names, or null when it is not a queue ARN of this account and region. */
  public String nameOf(String arn) {
    if (arn == null || !arn.startsWith(prefix) || arn.length() == prefix.length()) {
      return null;
    }
    String name = arn.substring(prefix.length());
    return name.indexOf(':') >= 0 ? null : name;
  }
}
