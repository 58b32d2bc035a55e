package dev.sluice.engine;

import dev.sluice.access.IdentityPolicy;
import dev.sluice.outbound.OutboundSettings;
import java.util.Map;

/**
 * What the engine needs from the configuration.
 *
 * @param shards number of shard verticles (each owns the queues that hash to it)
 * @param dispatch {@code direct} (context hand-off) or {@code eventbus}
 * @param memoryBudgetBytes bytes of messages held before sends are throttled
 * @param maxParkedReceives long polls parked server-wide (split evenly over the shards)
 * @param maxParkedReceivesPerQueue long polls parked on one queue
 * @param maxInflightPerQueue in-flight messages per queue before receives stop (SQS: 120,000)
 * @param maxQueues queues that may exist at once, server-wide
 * @param permissions the permissions of each access key id configured with some (others have full
 *     access to their own account's queues)
 * @param outbound the bounds of requests to HTTP/HTTPS subscribers
 * @param maxTriggers triggers that may exist at once, server-wide
 */
public record EngineSettings(
    int shards,
    String dispatch,
    long memoryBudgetBytes,
    int maxParkedReceives,
    int maxParkedReceivesPerQueue,
    int maxInflightPerQueue,
    int maxQueues,
    Map<String, IdentityPolicy> permissions,
    OutboundSettings outbound,
    int maxTriggers) {

  /** Topics that may exist at once, server-wide: AWS's default quota of topics per account. */
  static final int MAX_TOPICS = 100_000;

  public int maxTopics() {
    return MAX_TOPICS;
  }


  public int maxParkedReceivesPerShard() {
    return Math.max(1, maxParkedReceives / shards);
  }
}
