package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Limits;
import dev.sluice.model.ContentSlabTest.Holder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random sizes, random and FIFO release orders, adversarial stragglers (one long-lived record kept
 * in each of many chunks) and compaction steps of random bounds, against a plain list of what should
 * be live; after every step the invariants of design/tails.md §2.6 are checked: the slab's live
 * bytes are the sum of the live records, every live handle reads back its content and names its
 * owner, no two live records overlap, every live record has its owner, the slab's own counters and
 * chunk walk agree ({@link ContentSlab#audit()}); after compaction settles the slack is at most 25%
 * plus two chunks; once everything is released nothing is live and, trimmed, no chunk is held.
 */
class SlabRandomizedTest {
  static final int CHUNK = 4096;
  static final int STEPS = 2500;

  final ContentSlab slab = new ContentSlab(CHUNK);
  /** What should be live, oldest first. */
  final List<Holder> live = new ArrayList<>();
  /** Also live, but released only rarely: the records that pin chunks. */
  final List<Holder> stragglers = new ArrayList<>();
  Random random;
  int seed;

  @Test
  void invariantsHoldAfterEveryStepForManySeeds() {
    for (seed = 1; seed <= 4; seed++) {
      run(seed);
    }
  }

  void run(int s) {
    random = new Random(s);
    live.clear();
    stragglers.clear();
    for (int step = 0; step < STEPS; step++) {
      int op = random.nextInt(100);
      if (op < 40 && live.size() < 400) {
        write(live, size());
      } else if (op < 58 && !live.isEmpty()) {
        release(live, random.nextInt(live.size()));
      } else if (op < 72 && !live.isEmpty()) {
        release(live, 0); // FIFO: sent, received, deleted in order
      } else if (op < 88) {
        slab.compact(16 + random.nextInt(4096));
      } else if (op < 90) {
        pinChunks(2 + random.nextInt(6));
      } else if (op < 92 && !stragglers.isEmpty()) {
        release(stragglers, random.nextInt(stragglers.size()));
      } else if (op < 97) {
        settle();
      } else if (op < 98) {
        write(live, Limits.MESSAGE_SIZE_MAX); // the largest content, in a chunk of its own;
        check("seed " + s + " step " + step + " 1 MiB");
        release(live, live.size() - 1); // released at once, so checking every step stays cheap
      } else {
        slab.trim();
      }
      check("seed " + s + " step " + step + " op " + op);
    }
    while (!live.isEmpty() || !stragglers.isEmpty()) {
      List<Holder> from = stragglers.isEmpty() || (!live.isEmpty() && random.nextBoolean()) ? live : stragglers;
      release(from, random.nextInt(from.size()));
      slab.compact(16 + random.nextInt(4096));
      check("seed " + s + " releasing all");
    }
    settle();
    assertEquals(0, slab.liveBytes(), "seed " + s);
    assertTrue(slab.chunkCount() <= 1, "at most the open chunk, empty");
    slab.trim();
    assertEquals(0, slab.chunkCount(), "seed " + s);
    assertEquals(0, slab.allocatedBytes(), "seed " + s);
  }

  /** Mostly small, some up to the largest shared record, a few in chunks of their own. */
  int size() {
    int p = random.nextInt(100);
    if (p < 70) {
      return random.nextInt(200);
    } else if (p < 92) {
      return 200 + random.nextInt(CHUNK / 4 - 8 - 200 + 1);
    } else if (p < 99) {
      return CHUNK / 4 - 7 + random.nextInt(CHUNK);
    }
    return random.nextInt(16 * CHUNK);
  }

  void write(List<Holder> into, int length) {
    byte[] payload = new byte[length];
    random.nextBytes(payload);
    Holder h = new Holder(payload);
    h.handle = slab.write(payload, h);
    into.add(h);
  }

  void release(List<Holder> from, int index) {
    Holder h = from.remove(index);
    slab.release(h.handle);
  }

  /**
   * The adversarial pattern: small records written across {@code chunks} chunks, then all released
   * but one per chunk, kept long: each chunk is pinned by a single straggler.
   */
  void pinChunks(int chunks) {
    List<Holder> batch = new ArrayList<>();
    for (int i = 0; i < chunks * CHUNK / 60; i++) {
      write(batch, 20 + random.nextInt(80));
    }
    Map<Integer, List<Holder>> byChunk = new java.util.TreeMap<>();
    batch.forEach(h -> byChunk.computeIfAbsent(ContentSlab.chunkNumber(h.handle), c -> new ArrayList<>()).add(h));
    for (List<Holder> inChunk : byChunk.values()) {
      Holder kept = inChunk.get(random.nextInt(inChunk.size()));
      stragglers.add(kept);
      batch.remove(kept);
    }
    while (!batch.isEmpty()) {
      release(batch, random.nextInt(batch.size()));
    }
  }

  /** Compacts in bounded steps until the slab needs no more; then the slack is within its bound. */
  void settle() {
    int steps = 0;
    while (slab.needsCompaction()) {
      assertTrue(slab.compact(16 + random.nextInt(4096)) > 0, "a needed step progresses");
      assertTrue(++steps < 100_000, "compaction settles");
    }
    long slack = slab.allocatedBytes() - slab.liveBytes();
    assertTrue(slack <= slab.allocatedBytes() / 4 + 2L * CHUNK,
        "seed " + seed + ": slack " + slack + " of " + slab.allocatedBytes());
  }

  void check(String where) {
    slab.audit();
    List<Holder> all = new ArrayList<>(live);
    all.addAll(stragglers);
    long expected = 0;
    for (Holder h : all) {
      expected += ContentSlab.recordSize(h.payload.length);
      assertArrayEquals(h.payload, slab.copy(h.handle), where);
      assertSame(h, slab.owner(h.handle), where);
    }
    assertEquals(expected, slab.liveBytes(), where);

    all.sort(Comparator.comparingInt((Holder h) -> ContentSlab.chunkNumber(h.handle))
        .thenComparingInt(h -> ContentSlab.offset(h.handle)));
    for (int i = 1; i < all.size(); i++) {
      long a = all.get(i - 1).handle;
      long b = all.get(i).handle;
      assertTrue(ContentSlab.chunkNumber(a) != ContentSlab.chunkNumber(b)
          || ContentSlab.offset(a) + slab.recordBytes(a) <= ContentSlab.offset(b), where + ": records overlap");
    }

    Map<ContentSlab.Owner, Long> visited = new IdentityHashMap<>();
    slab.forEachLive((handle, bytes, owner) -> {
      assertTrue(owner instanceof Holder h && h.handle == handle, where + ": owner does not hold its handle");
      assertEquals(ContentSlab.recordSize(((Holder) owner).payload.length), bytes, where);
      visited.put(owner, handle);
    });
    assertEquals(all.size(), visited.size(), where + ": live records and owners differ");
  }
}
