package dev.sluice.api.topics;

/** ConfirmSubscription (its page in the SNS API reference): the token a pending subscription was sent. */
public final class ConfirmSubscription {
  private ConfirmSubscription() {}

  public record Request(String topicArn, String token, String authenticateOnUnsubscribe) {}

  public record Response(String subscriptionArn) {}
}
