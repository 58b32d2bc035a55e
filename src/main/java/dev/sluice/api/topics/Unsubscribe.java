package dev.sluice.api.topics;

/** Unsubscribe (its page in the SNS API reference): succeeds also for a subscription that is gone. */
public final class Unsubscribe {
  private Unsubscribe() {}

  public record Request(String subscriptionArn) {}
}
