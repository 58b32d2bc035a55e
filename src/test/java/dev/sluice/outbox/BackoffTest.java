package dev.sluice.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The relay's back-off: 100 ms doubling to 30 s, shortened by up to half at random, and reset by a success. */
class BackoffTest {
  @Test
  void doublesUpToThirtySecondsWithoutJitter() {
    Backoff b = new Backoff(() -> 0);
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      waits.add(b.next());
    }
    assertEquals(List.of(100L, 200L, 400L, 800L, 1600L, 3200L, 6400L, 12800L, 25600L, 30000L, 30000L, 30000L), waits);
    b.reset();
    assertEquals(100, b.next());
  }

  @Test
  void jitterShortensAWaitByUpToAHalf() {
    assertEquals(51, new Backoff(() -> 0.99).next());
    Backoff b = new Backoff(() -> 0.5);
    assertEquals(75, b.next());
    assertEquals(150, b.next());
    for (int i = 0; i < 100; i++) {
      long w = new Backoff(Math::random).next();
      assertTrue(w > 50 && w <= 100, "wait " + w);
    }
  }
}
