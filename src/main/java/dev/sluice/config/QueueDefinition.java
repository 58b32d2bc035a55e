package dev.sluice.config;

import java.util.Map;

/**
 * A queue predefined in the configuration ({@code queues:}), created at start-up when absent, in
 * its account and region (the defaults, sqs.accountId and sqs.region, unless the entry names
 * others). {@code deadLetterQueue} is the name of a queue of the same account and region (null when
 * none); with it, {@code maxReceiveCount} says after how many receives a message moves there.
 * {@code redeliveryBackoff} is its redelivery backoff, a Sluice extension (null when none; its
 * bounds are checked by the engine, as the attributes are). {@code key} is where it was defined,
 * e.g. {@code queues[2]}, for error messages.
 */
public record QueueDefinition(
    String key, String accountId, String region, String name, Map<String, String> attributes,
    Map<String, String> tags, String deadLetterQueue, int maxReceiveCount, Backoff redeliveryBackoff) {

  /** {@code redeliveryBackoff: {baseSeconds: n, maxSeconds: m}} as given. */
  public record Backoff(int baseSeconds, int maxSeconds) {}
}
