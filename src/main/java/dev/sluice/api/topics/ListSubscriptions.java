package dev.sluice.api.topics;

import java.util.List;

/** ListSubscriptions (its page in the SNS API reference): 100 a page, and a NextToken while more follow. */
public final class ListSubscriptions {
  private ListSubscriptions() {}

  public record Request(String nextToken) {}

  public record Response(List<SubscriptionSummary> subscriptions, String nextToken) {}
}
