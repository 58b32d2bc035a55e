package dev.sluice.api.topics;

import java.util.Map;

/** GetSubscriptionAttributes (its page in the SNS API reference). */
public final class GetSubscriptionAttributes {
  private GetSubscriptionAttributes() {}

  public record Request(String subscriptionArn) {}

  public record Response(Map<String, String> attributes) {}
}
