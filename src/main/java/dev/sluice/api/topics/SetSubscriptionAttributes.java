package dev.sluice.api.topics;

/** SetSubscriptionAttributes (its page in the SNS API reference): one attribute a call. */
public final class SetSubscriptionAttributes {
  private SetSubscriptionAttributes() {}

  public record Request(String subscriptionArn, String attributeName, String attributeValue) {}
}
