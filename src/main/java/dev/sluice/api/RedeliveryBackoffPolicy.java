package dev.sluice.api;

/**
 * A queue's redelivery backoff as the console's admin API reads and sets it (a Sluice extension,
 * not an SQS action nor attribute: no wire protocol of SQS reaches it, and SDKs never see it).
 */
public final class RedeliveryBackoffPolicy {
  private RedeliveryBackoffPolicy() {}

  /** Reads the policy of the queue {@code queueUrl} names. */
  public record GetRequest(String queueUrl) {}

  /** Sets the policy; both seconds null removes it. */
  public record SetRequest(String queueUrl, Integer baseSeconds, Integer maxSeconds) {}

  /** The policy; both null when the queue has none. */
  public record Response(Integer baseSeconds, Integer maxSeconds) {}
}
