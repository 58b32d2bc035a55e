package dev.sluice.model;

/**
 * The structural invariants of a {@link ContentSlab}, checked by walking its chunks (design/tails.md
 * §2.6): the randomized tests call {@link ContentSlab#audit()} after every step, so a counter that
 * drifts or a record that overlaps another is found at the step that caused it. Linear in the
 * records; never on a serving path.
 */
final class SlabAudit {
  private SlabAudit() {}

  /**
   * One chunk: its records tile {@code [0, top)} exactly; ordinals are distinct and below the count
   * handed out; a live record has its owner and a dead one none; its live counter is the sum of its
   * live records; only the open chunk may be empty; a dedicated chunk is exactly its one record, and
   * a shared chunk is {@code chunkBytes} long with records of at most {@code largestShared}.
   */
  static void chunk(SlabChunk c, boolean open, int chunkBytes, int largestShared) {
    boolean[] seen = new boolean[c.records];
    long live = 0;
    int count = 0;
    int at = 0;
    while (at < c.top) {
      int bytes = c.recordBytes(at);
      check(bytes >= SlabChunk.HEADER && bytes <= c.top - at, c, "record at " + at + " runs past top");
      int ordinal = c.ordinal(at);
      check(ordinal < c.records && !seen[ordinal], c, "ordinal " + ordinal + " at " + at);
      seen[ordinal] = true;
      if (c.isDead(at)) {
        check(c.owners[ordinal] == null, c, "dead record at " + at + " keeps its owner");
      } else {
        check(c.owners[ordinal] != null, c, "live record at " + at + " has no owner");
        live += bytes;
      }
      check(c.dedicated || bytes <= largestShared, c, "record of " + bytes + " shares a chunk");
      at += bytes;
      count++;
    }
    check(at == c.top && count == c.records, c, "records do not tile the chunk");
    for (int i = c.records; i < c.owners.length; i++) {
      check(c.owners[i] == null, c, "owner beyond the last ordinal");
    }
    check(live == c.live, c, "live " + c.live + " but records sum to " + live);
    check(c.live > 0 || (open && c.top == 0), c, "empty but held");
    if (c.dedicated) {
      check(!open && c.records == 1 && c.top == c.data.length, c, "dedicated chunk holds more than its record");
    } else {
      check(c.data.length == chunkBytes, c, "shared chunk of " + c.data.length + " bytes");
    }
  }

  static void forEachLive(SlabChunk c, ContentSlab.LiveRecord visitor) {
    for (int at = 0; at < c.top; at += c.recordBytes(at)) {
      if (!c.isDead(at)) {
        visitor.accept(ContentSlab.handle(c.number, at), c.recordBytes(at), c.owners[c.ordinal(at)]);
      }
    }
  }

  static void totals(long liveBytes, long liveSum, long allocatedBytes, long allocatedSum) {
    if (liveBytes != liveSum || allocatedBytes != allocatedSum) {
      throw new IllegalStateException("slab counts live " + liveBytes + " allocated " + allocatedBytes
          + " but its chunks hold live " + liveSum + " allocated " + allocatedSum);
    }
  }

  private static void check(boolean holds, SlabChunk c, String what) {
    if (!holds) {
      throw new IllegalStateException("slab chunk " + c.number + ": " + what);
    }
  }
}
