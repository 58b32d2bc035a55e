package dev.sluice.api;

/**
 * What a shard is chosen by: the account, region and name of the resource a request is about, a
 * queue or a topic. A topic and a queue of the same account, region and name land on the same
 * shard, and are different resources, as at AWS.
 */
public interface ShardKey {
  String accountId();

  String region();

  String name();
}
