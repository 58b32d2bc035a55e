package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * For randomized tests: checks a queue's {@link QueueCounters} after each step. No total is ever
 * lower than at the check before (the console reads a fall as a reset, so one here would be a bug),
 * and each equals the count the test kept itself.
 */
final class TotalsCheck {
  private final QueueState q;
  private long arrived;
  private long received;
  private long deleted;

  TotalsCheck(QueueState q) {
    this.q = q;
  }

  /** {@code where} starts the failure's message (the seed and step). */
  void check(String where, long expectedArrived, long expectedReceived, long expectedDeleted) {
    QueueCounters c = q.counters();
    String now = c.arrived() + "/" + c.received() + "/" + c.deleted();
    if (c.arrived() < arrived || c.received() < received || c.deleted() < deleted) {
      fail(where + "a total decreased: " + arrived + "/" + received + "/" + deleted + " then " + now);
    }
    arrived = c.arrived();
    received = c.received();
    deleted = c.deleted();
    assertEquals(expectedArrived + "/" + expectedReceived + "/" + expectedDeleted, now,
        where + "totals (arrived/received/deleted)");
  }
}
