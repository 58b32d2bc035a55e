package dev.sluice.model;

/**
 * Bounds on parked long polls, per queue and per shard, and the shard's current count. A receive
 * past a bound is refused with RequestThrottled (retryable) rather than held: every parked poll
 * holds a connection and memory. Owned by one shard event loop.
 */
public final class ParkingLimits {
  private final int maxPerQueue;
  private final int maxPerShard;
  private int parkedInShard;

  public ParkingLimits(int maxPerQueue, int maxPerShard) {
    this.maxPerQueue = maxPerQueue;
    this.maxPerShard = maxPerShard;
  }

  int maxPerQueue() {
    return maxPerQueue;
  }

  boolean shardFull() {
    return parkedInShard >= maxPerShard;
  }

  void parked() {
    parkedInShard++;
  }

  void unparked() {
    parkedInShard--;
  }

  public int parkedInShard() {
    return parkedInShard;
  }
}
