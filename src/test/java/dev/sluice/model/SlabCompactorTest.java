package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.model.ContentSlabTest.Holder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compactor runs one bounded step per timer turn from the due-time index, and only when needed. */
class SlabCompactorTest {
  final ContentSlab slab = new ContentSlab(ContentSlabTest.CHUNK);
  final DueTimeIndex index = new DueTimeIndex();
  final SlabCompactor compactor = new SlabCompactor(slab, index, 200);

  /** Seven chunks pinned by one record each, then a full open chunk: six evacuations to do. */
  List<Holder> pinned() {
    List<Holder> kept = new ArrayList<>();
    for (int c = 0; c < 8; c++) {
      List<Holder> chunk = new ArrayList<>();
      for (int i = 0; i < ContentSlabTest.PER_CHUNK; i++) {
        Holder h = new Holder(ContentSlabTest.bytes(ContentSlabTest.SMALL, i));
        h.handle = slab.write(h.payload, h);
        chunk.add(h);
      }
      for (Holder h : chunk) {
        if (h == chunk.get(chunk.size() - 1) || c == 7) {
          kept.add(h);
        } else {
          slab.release(h.handle);
        }
      }
    }
    return kept;
  }

  @Test
  void wokenOverTheBoundItStepsOncePerTurnUntilTheSlabIsCompact() {
    List<Holder> kept = pinned();
    assertTrue(slab.needsCompaction());
    compactor.wake(1_000);
    compactor.wake(1_000); // a second wake while scheduled changes nothing
    assertEquals(1, index.size());
    long now = 1_000;
    int turns = 0;
    while (index.size() > 0) {
      assertEquals(1, index.fireDue(now, 100), "one step per turn, however many may fire");
      now += SlabCompactor.PAUSE_MILLIS;
      turns++;
    }
    assertFalse(slab.needsCompaction());
    assertEquals(6, kept.stream().filter(h -> h.moves == 1).count());
    // Six chunks of 36 dead headers (8 bytes of work each) and a 108-byte record: 2,376 bytes of
    // work, at most 200 a turn.
    assertEquals(6 * 2, turns);
    kept.forEach(h -> slab.copy(h.handle));
  }

  @Test
  void wokenUnderTheBoundItStaysUnscheduled() {
    Holder h = new Holder(new byte[10]);
    h.handle = slab.write(h.payload, h);
    compactor.wake(5);
    assertEquals(0, index.size());
    assertFalse(compactor.isScheduled());
  }
}
