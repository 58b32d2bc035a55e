package dev.sluice.config;

import java.util.List;
import java.util.Map;

/**
 * An SNS topic predefined in the configuration ({@code topics:}), created at start-up when absent,
 * in its account and region (sqs.accountId and sqs.region unless the entry names others), with its
 * subscriptions. {@code key} is where it was defined, e.g. {@code topics[0]}, for error messages.
 */
public record TopicDefinition(String key, String accountId, String region, String name, Map<String, String> attributes,
    Map<String, String> tags, List<Subscription> subscriptions) {

  /** A subscription of a queue of the topic's account and region, named by its name. */
  public record Subscription(String key, String queue, Map<String, String> attributes) {}
}
