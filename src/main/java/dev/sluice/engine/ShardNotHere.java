package dev.sluice.engine;

/**
 * A request forwarded to this node for a shard it does not hold (it moved on, or has not arrived
 * yet): nothing ran, so the entry node may route it again. Not an SQS error; never reaches a client.
 */
public final class ShardNotHere extends RuntimeException {
  private final int shard;

  public ShardNotHere(int shard) {
    super("shard " + shard + " is not served here", null, false, false);
    this.shard = shard;
  }

  public int shard() {
    return shard;
  }
}
