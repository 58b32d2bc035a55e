package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A shard's content slab checked against the messages its queues hold (design/tails.md §2.6): its
 * structure audits; its live bytes are the sum of the resident messages' records, and it holds no
 * other live record; each resident message's handle reads back its own content (its body's MD5 is
 * the message's), owned by it, and is charged its record plus the overhead.
 */
final class SlabInvariants {
  private SlabInvariants() {}

  static void check(ContentSlab slab, Iterable<QueueState> queues, String where) {
    slab.audit();
    long[] bytes = {0};
    int[] resident = {0};
    for (QueueState q : queues) {
      q.forEachResident(m -> {
        assertNotEquals(ContentSlab.NONE, m.handle, where + "resident message " + m.key + " has no record");
        assertNull(m.travelling, where + "resident message " + m.key + " keeps travelling content");
        assertSame(m, slab.owner(m.handle), where + "record of " + m.key + " owned by another");
        int recordBytes = slab.recordBytes(m.handle);
        assertEquals(m.heldBytes, recordBytes + ArrivingMessages.MESSAGE_OVERHEAD_BYTES,
            where + "message " + m.key + " charged other than its record");
        assertEquals(m.md5OfBody(), Digests.md5Hex(slab.read(m.handle).body()),
            where + "record of " + m.key + " is another's content");
        bytes[0] += recordBytes;
        resident[0]++;
      });
    }
    int[] live = {0};
    slab.forEachLive((handle, recordBytes, owner) -> live[0]++);
    assertEquals(resident[0], live[0], where + "live records that no resident message holds");
    assertEquals(bytes[0], slab.liveBytes(), where + "slab live bytes");
  }

  /** Every queue is gone: nothing is live, and no chunk is held. */
  static void checkEmpty(ContentSlab slab, String where) {
    slab.audit();
    assertEquals(0, slab.liveBytes(), where + "slab live bytes once every queue is gone");
    assertEquals(0, slab.chunkCount(), where + "slab chunks once every queue is gone");
  }
}
