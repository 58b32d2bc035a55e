package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.QueueKey;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Routing hashes a queue's whole key: account, region and name. */
class ShardRouterTest {
  static final ShardRouter ROUTER = new ShardRouter(8);

  @Test
  void oneKeyAlwaysGoesToOneShardTheSameOnEveryStart() {
    QueueKey key = new QueueKey("000000000000", "us-east-1", "orders");
    assertEquals(ROUTER.shardOf(key), new ShardRouter(8).shardOf(new QueueKey("000000000000", "us-east-1", "orders")));
    // Pinned: the hash is String.hashCode's, specified by Java, so a durable database's queues meet
    // the same shards after an upgrade.
    assertEquals(3, ROUTER.shardOf(key));
    assertEquals(4, ROUTER.shardOf(new QueueKey("111111111111", "eu-west-1", "orders")));
  }

  @Test
  void theSameNameInOtherRegionsAndAccountsSpreadsOverTheShards() {
    Set<Integer> byRegion = new HashSet<>();
    Set<Integer> byAccount = new HashSet<>();
    for (int i = 0; i < 64; i++) {
      byRegion.add(ROUTER.shardOf(new QueueKey("000000000000", "region-" + i, "orders")));
      byAccount.add(ROUTER.shardOf(new QueueKey(String.format("%012d", i), "us-east-1", "orders")));
    }
    assertTrue(byRegion.size() >= 6, "one name in 64 regions meets " + byRegion.size() + " shards");
    assertTrue(byAccount.size() >= 6, "one name in 64 accounts meets " + byAccount.size() + " shards");
  }

  @Test
  void keysSpreadEvenly() {
    int[] counts = new int[8];
    for (int i = 0; i < 8000; i++) {
      counts[ROUTER.shardOf(new QueueKey("000000000000", i % 2 == 0 ? "us-east-1" : "us-west-2", "q" + i / 2))]++;
    }
    for (int c : counts) {
      assertTrue(c > 800 && c < 1200, java.util.Arrays.toString(counts));
    }
  }
}
