package dev.sluice.api.topics;

/** ListSubscriptionsByTopic (its page in the SNS API reference): one topic's subscriptions, 100 a page. */
public final class ListSubscriptionsByTopic {
  private ListSubscriptionsByTopic() {}

  public record Request(String topicArn, String nextToken) {}
}
