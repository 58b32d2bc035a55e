package dev.sluice.api.topics;

/** One member of ListSubscriptions and ListSubscriptionsByTopic (SNS API reference: Subscription). */
public record SubscriptionSummary(String subscriptionArn, String owner, String protocol, String endpoint,
    String topicArn) {}
