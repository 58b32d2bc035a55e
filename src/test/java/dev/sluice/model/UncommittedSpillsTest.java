package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class UncommittedSpillsTest {

  /**
   * A fill with no consumer: rows spill and commit, and nobody asks for the smallest uncommitted
   * one. The heap must not keep an entry per row ever spilled (it did: 400 MB over 10 million).
   */
  @Test
  void aFillThatNeverAsksForTheMinimumKeepsTheHeapBoundedByTheLiveEntries() {
    UncommittedSpills spills = new UncommittedSpills();
    List<Long> inFlight = new ArrayList<>();
    for (long key = 0; key < 200_000; key++) {
      spills.add(new DeliveryPosition(key / 10, key));
      inFlight.add(key);
      if (inFlight.size() > 500) { // a writer some batches behind, committing in order
        assertTrue(spills.remove(inFlight.remove(0)));
      }
      assertTrue(spills.heapSize() <= 2 * spills.size() + 64, spills.heapSize() + " entries for " + spills.size());
    }
    inFlight.forEach(spills::remove);
    assertEquals(0, spills.size());
    assertEquals(0, spills.heapSize());
    assertNull(spills.min());
  }

  /** Adds, out-of-order commits and minimum queries against a sorted set, with rebuilds on the way. */
  @Test
  void theMinimumIsAlwaysTheSmallestLivePositionWhateverTheOrderOfCommits() {
    for (int seed = 0; seed < 50; seed++) {
      Random random = new Random(seed);
      UncommittedSpills spills = new UncommittedSpills();
      TreeSet<DeliveryPosition> reference = new TreeSet<>();
      List<DeliveryPosition> live = new ArrayList<>();
      long nextKey = 0;
      for (int step = 0; step < 5_000; step++) {
        int op = random.nextInt(10);
        if (op < 5 || live.isEmpty()) {
          DeliveryPosition p = new DeliveryPosition(random.nextInt(1_000), nextKey++);
          spills.add(p);
          reference.add(p);
          live.add(p);
        } else if (op < 9) {
          DeliveryPosition p = live.remove(random.nextInt(live.size()));
          assertTrue(spills.remove(p.minor()));
          reference.remove(p);
        } else {
          assertEquals(reference.isEmpty() ? null : reference.first(), spills.min(), "seed " + seed + " step " + step);
        }
        assertEquals(reference.size(), spills.size());
        assertTrue(spills.heapSize() <= 2 * spills.size() + 64);
      }
      assertEquals(reference.isEmpty() ? null : reference.first(), spills.min());
    }
  }
}
