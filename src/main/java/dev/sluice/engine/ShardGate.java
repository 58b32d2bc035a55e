package dev.sluice.engine;

/**
 * The serving gate of a durable server's client calls: the server's own (it owns its database) and
 * then each shard's slot (deployed, loaded, not being drained). Stateless; reads are volatile.
 */
final class ShardGate implements ServingGate {
  private final ServingGate server;
  private final ShardSlots slots;

  ShardGate(ServingGate server, ShardSlots slots) {
    this.server = server;
    this.slots = slots;
  }

  @Override
  public String closedBecause() {
    return server.closedBecause();
  }

  @Override
  public String closedBecause(int shard) {
    String closed = server.closedBecause();
    return closed != null ? closed : slots.closedBecause(shard);
  }

  @Override
  public String answersRefusedBecause(int shard) {
    String closed = server.closedBecause();
    return closed != null ? closed : slots.answersRefusedBecause(shard);
  }
}
