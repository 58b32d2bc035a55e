package dev.sluice.console;

import static dev.sluice.console.Samples.idle;
import static dev.sluice.console.Samples.key;
import static dev.sluice.console.Samples.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.api.QueueKey;
import dev.sluice.engine.QueueSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The console's bounded history (design/console.md §2.4), with time passed in. */
class ConsoleHistoryTest {
  static final int TICK = 5000;
  long now = 1_764_300_000_000L;

  @Test
  void anIdleQueueHasARowAndNoSeriesUntilItsFirstNonZeroSample() {
    ConsoleHistory h = new ConsoleHistory(TICK, 10);
    h.record(now, List.of(idle("a")), List.of());
    assertNotNull(h.queue(key("a")));
    assertNull(h.queue(key("a")).series);
    h.record(now += TICK, List.of(queue("a", 1, 0, 0, 1, 0, 0)), List.of());
    assertNotNull(h.queue(key("a")).series);
    assertEquals(1, h.seriesCount());
  }

  @Test
  void aTotalGoingDownIsAResetAndCountsNothing() {
    ConsoleHistory h = new ConsoleHistory(TICK, 10);
    h.record(now, List.of(queue("a", 0, 0, 0, 100, 50, 40)), List.of());
    h.record(now += TICK, List.of(queue("a", 0, 0, 0, 110, 55, 40)), List.of());
    QueueRow r = h.queue(key("a"));
    assertEquals(10, r.arrivedDelta);
    assertEquals(2.0, r.perSecond(r.arrivedDelta));
    h.record(now += TICK, List.of(queue("a", 0, 0, 0, 3, 1, 0)), List.of());
    assertEquals(0, r.arrivedDelta + r.receivedDelta + r.deletedDelta);
    h.record(now += TICK, List.of(queue("a", 0, 0, 0, 8, 1, 0)), List.of());
    assertEquals(5, r.arrivedDelta, "counted again from the new total");
  }

  @Test
  void aDeletedQueueOrANewGenerationLosesItsRowAndSeries() {
    ConsoleHistory h = new ConsoleHistory(TICK, 10);
    h.record(now, List.of(queue("a", 1, 0, 0, 0, 0, 0), queue("b", 1, 0, 0, 5, 0, 0)), List.of());
    h.record(now += TICK, List.of(queue("b", 1, 0, 0, 5, 0, 0)), List.of());
    assertNull(h.queue(key("a")), "absent from the tick: deleted");
    assertEquals(1, h.seriesCount());
    QueueSample again = new QueueSample(key("b"), 2, null, 0, 0, 0, 0, 9, 0, 0);
    h.record(now += TICK, List.of(again), List.of());
    QueueRow b = h.queue(key("b"));
    assertEquals(2, b.generation);
    assertEquals(0, b.arrivedDelta, "a new generation does not continue the old totals");
    assertNull(b.series);
    assertEquals(0, h.seriesCount());
  }

  @Test
  void aSkippedTickLeavesAnEmptySlotAndTheCoarseRingKeepsTheLastGaugeAndTheSum() {
    ConsoleHistory h = new ConsoleHistory(TICK, 10);
    long start = 1_764_300_000_000L; // a whole minute
    h.record(start, List.of(queue("a", 1, 0, 0, 1, 0, 0)), List.of());
    h.record(start + TICK, List.of(queue("a", 2, 0, 0, 3, 0, 0)), List.of());
    h.record(start + 3 * TICK, List.of(queue("a", 4, 0, 0, 6, 0, 0)), List.of());
    Series s = h.queue(key("a")).series;
    assertEquals(3, h.tick());
    assertEquals(2, s.fineAt(0, 1));
    assertEquals(Series.NONE, s.fineAt(0, 2), "the skipped tick");
    assertEquals(4, s.fineAt(0, 3));
    long minute = start / ConsoleHistory.COARSE_MILLIS;
    assertEquals(4, s.coarseAt(0, minute), "a gauge: the minute's last value");
    assertEquals(5, s.coarseAt(3, minute), "arrived: 0 + 2 + 3 in the minute");
  }

  @Test
  void atTheBoundANewlyActiveQueueTakesTheIdlestSeriesOrNone() {
    ConsoleHistory h = new ConsoleHistory(TICK, 2);
    h.record(now, List.of(queue("a", 1, 0, 0, 0, 0, 0), queue("b", 1, 0, 0, 0, 0, 0), idle("c")), List.of());
    h.record(now += TICK, List.of(idle("a"), queue("b", 1, 0, 0, 0, 0, 0), queue("c", 1, 0, 0, 0, 0, 0)),
        List.of());
    assertNull(h.queue(key("c")).series, "a was active a tick ago: c gets none");
    for (int i = 0; i < ConsoleHistory.FINE_SLOTS; i++) {
      h.record(now += TICK, List.of(idle("a"), queue("b", 1, 0, 0, 0, 0, 0), idle("c")), List.of());
    }
    h.record(now += TICK, List.of(idle("a"), queue("b", 1, 0, 0, 0, 0, 0), queue("c", 1, 0, 0, 0, 0, 0)),
        List.of());
    assertNull(h.queue(key("a")).series, "idle for the fine ring's span: its series is taken");
    assertNotNull(h.queue(key("c")).series);
    assertEquals(2, h.seriesCount());
  }

  @Test
  void aPinnedQueueGetsASeriesAtOnceAndKeepsItWhileIdle() {
    ConsoleHistory h = new ConsoleHistory(TICK, 1);
    h.record(now, List.of(queue("a", 1, 0, 0, 0, 0, 0), idle("b")), List.of());
    h.pin(key("b"));
    assertNotNull(h.queue(key("b")).series, "takes a's, the only one");
    assertNull(h.queue(key("a")).series);
    for (long t = 0; t <= ConsoleHistory.IDLE_DROP_MILLIS / TICK + 1; t++) {
      h.record(now += TICK, List.of(idle("a"), idle("b")), List.of());
    }
    assertNotNull(h.queue(key("b")).series, "idle for over an hour, but pinned");
    h.unpin(key("b"));
    h.record(now += TICK, List.of(idle("a"), idle("b")), List.of());
    assertEquals(0, h.seriesCount(), "unpinned, and idle for over an hour");
  }

  /**
   * The bound: 10,000 queues for two simulated hours at 5 s with random activity and churn; after
   * every tick the series stay within historySeries, the bytes equal an independent recount and the
   * formula, no rate is negative, no unpinned series outlives an hour of idleness, pinned ones stay.
   */
  @Test
  void theHistoryStaysWithinItsBoundThroughTwoHoursOfChurn() {
    int maxSeries = 500;
    ConsoleHistory h = new ConsoleHistory(TICK, maxSeries);
    Random random = new Random(21);
    Map<QueueKey, QueueSample> live = new HashMap<>();
    Map<QueueKey, Long> lastActive = new HashMap<>();
    int made = 0;
    for (; made < 10_000; made++) {
      live.put(key("q" + made), idle("q" + made));
    }
    List<QueueKey> pinned = List.of(key("q0"), key("q1"), key("q2"));
    pinned.forEach(h::pin);
    List<QueueKey> keys = new ArrayList<>(live.keySet());
    List<QueueKey> drain = new ArrayList<>();
    long recordNanos = 0;
    boolean reachedTheBound = false;
    for (int tick = 0; tick < 2 * 3600 / 5; tick++) {
      now += TICK + random.nextInt(200) - 100;
      // What was busy last tick is drained now: its gauges 0, its totals unchanged, so it goes idle.
      for (QueueKey k : drain) {
        QueueSample s = live.get(k);
        if (s != null) {
          live.put(k, new QueueSample(k, s.generation(), s.deadLetterTargetArn(), 0, 0, 0, 0, s.arrived(),
              s.received(), s.deleted()));
        }
      }
      drain.clear();
      // Busy queues: 200 a tick in the first hour, half of them among the same 600; in the second, 4 a
      // tick among the first 100 only, so what the first hour made must go by the idle rule.
      boolean firstHour = tick < 720;
      int busy = firstHour ? 200 : 4;
      for (int i = 0; i < busy; i++) {
        QueueKey k = keys.get(random.nextInt(!firstHour ? 100 : i < busy / 2 ? 600 : keys.size()));
        QueueSample s = live.get(k);
        if (s == null || pinned.contains(k)) {
          continue;
        }
        live.put(k, new QueueSample(k, s.generation(), s.deadLetterTargetArn(), 1 + random.nextInt(50),
            random.nextInt(5), 0, 1000, s.arrived() + random.nextInt(20), s.received() + random.nextInt(20),
            s.deleted() + 1));
        lastActive.put(k, now);
        drain.add(k);
      }
      for (int i = 0; i < 5; i++) {
        QueueKey gone = keys.get(random.nextInt(keys.size()));
        if (firstHour && !pinned.contains(gone) && live.remove(gone) != null) {
          lastActive.remove(gone);
          QueueKey born = key("q" + made++);
          keys.add(born);
          live.put(born, queue(born.name(), 1, 0, 0, 1, 0, 0));
          lastActive.put(born, now);
          drain.add(born);
        }
        QueueKey remade = keys.get(random.nextInt(keys.size()));
        QueueSample s = live.get(remade);
        if (s != null && !pinned.contains(remade) && !drain.contains(remade)) {
          live.put(remade, new QueueSample(remade, s.generation() + 1, null, 0, 0, 0, 0, 0, 0, 0));
          lastActive.remove(remade);
        }
        QueueKey reset = keys.get(random.nextInt(keys.size()));
        s = live.get(reset);
        if (s != null && !drain.contains(reset)) {
          live.put(reset, new QueueSample(reset, s.generation(), null, 0, 0, 0, 0, 0, 0, 0));
        }
      }
      List<QueueSample> samples = new ArrayList<>(live.values());
      long t0 = System.nanoTime();
      h.record(now, samples, List.of());
      recordNanos += System.nanoTime() - t0;

      assertTrue(h.seriesCount() <= maxSeries, "series " + h.seriesCount() + " at tick " + tick);
      reachedTheBound |= h.seriesCount() == maxSeries;
      assertEquals(live.size(), h.queues().size(), "a row per live queue, none for a deleted one");
      long recount = (long) h.queues().size() * 120;
      for (Series s : h.allSeries()) {
        recount += 128 + 16 + 4L * s.fine.length + 16 + 4L * s.coarse.length;
        if (!pinned.contains(s.key) && now - lastActive.getOrDefault(s.key, 0L) >= 3_600_000) {
          fail(s.key + " idle for an hour, still kept at tick " + tick);
        }
      }
      assertEquals(recount, h.retainedBytes());
      assertTrue(h.retainedBytes() <= (long) maxSeries * 4_480 + h.queues().size() * 120L);
      for (QueueRow r : h.queues()) {
        if (r.arrivedDelta < 0 || r.receivedDelta < 0 || r.deletedDelta < 0 || r.perSecond(r.arrivedDelta) < 0) {
          fail(r.key + ": a negative rate at tick " + tick);
        }
      }
      for (QueueKey p : pinned) {
        assertNotNull(h.queue(p).series, "pinned, kept");
      }
    }
    assertTrue(reachedTheBound, "the bound was reached");
    assertTrue(h.seriesCount() <= 100 + pinned.size(), "the first hour's series went idle and were dropped: "
        + h.seriesCount());
    System.out.printf("ConsoleHistoryTest: %d ticks of %d queues, %.2f ms per merge%n", 1440, live.size(),
        recordNanos / 1e6 / 1440);
  }

  @Test
  void noSeriesAtAllWithABoundOfZero() {
    ConsoleHistory h = new ConsoleHistory(TICK, 0);
    h.record(now, List.of(queue("a", 5, 0, 0, 5, 0, 0)), List.of());
    h.pin(key("a"));
    assertEquals(0, h.seriesCount());
    assertSame(null, h.queue(key("a")).series);
    assertEquals(120, h.retainedBytes());
  }
}
