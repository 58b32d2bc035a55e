package dev.sluice.model;

/**
 * Where a queue's messages' contents live as they enter and leave it (design/tails.md §2.5): a
 * resident message's content is a record in the shard's {@link ContentSlab}; every exit releases the
 * record, and a message leaving for another queue takes a copy (travelling content) first. Kept
 * apart from {@link MessageStore}, which calls it on each of those paths.
 */
final class ContentRecords {
  private final ContentSlab slab;
  private final SlabCompactor compactor;

  ContentRecords(ShardResources env) {
    this.slab = env.slab();
    this.compactor = env.compactor();
  }

  ContentSlab slab() {
    return slab;
  }

  /** {@code m} is resident here from now on: its payload becomes its record. */
  void write(Message m, byte[] payload) {
    m.handle = slab.write(payload, m);
    m.travelling = null;
  }

  /** {@code m}, just sent, is resident here from now on: its content is packed into its record. */
  void write(Message m, PackedContent content) {
    m.handle = slab.write(content, m);
    m.travelling = null;
  }

  /** {@code m} leaves (deleted, expired, purged, evicted, its write failed): its record goes. */
  void release(Message m) {
    if (m.handle != ContentSlab.NONE) {
      slab.release(m.handle);
      m.handle = ContentSlab.NONE;
      // Due at once (time 0 is past): the compactor looks in the shard's next timer turn, and
      // only if the slack is over its bound.
      compactor.wake(0);
    }
  }

  /** {@code m} leaves for another queue: its content travels with it, its record goes. */
  void detach(Message m) {
    if (m.handle != ContentSlab.NONE) {
      m.travelling = slab.copy(m.handle);
      release(m);
    }
  }

  /**
   * A queue was purged or deleted: if that left the shard's slab without a live record, its open
   * chunk goes too, so a shard whose queues are gone holds no chunk. Not on every release, which
   * would allocate a chunk per message for a queue hovering around empty.
   */
  void trimIfEmpty() {
    if (slab.liveBytes() == 0) {
      slab.trim();
    }
  }
}
