package dev.sluice.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OutboxTimelineTest {
  private static final long ORIGIN = 1_000_000_000L;
  private static final long START = ORIGIN + 1_000_000_000L;
  private static final long MS = 1_000_000L;

  /** 100 commits a second of 10 rows: commit k due k × 10 ms after the start; the window is the second second. */
  private static OutboxTimeline timeline() {
    return new OutboxTimeline(OpenLoopSchedule.of(START, 100, 0, 1), ORIGIN, 10, START + 1_000 * MS,
        START + 2_000 * MS);
  }

  private static String body(OutboxTimeline t, long row) {
    return OutboxBody.of(t.stamp(row / t.rowsPerCommit()), row, 100);
  }

  @Test
  void theScheduleEndsWithTheWindowAndEachCommitHoldsItsRows() {
    OutboxTimeline t = timeline();
    assertEquals(200, t.commits());
    assertEquals(START + 1_500 * MS, t.dueAt(150));
    assertEquals(START + 1_500 * MS - ORIGIN, t.stamp(150));
  }

  @Test
  void latencyCountsFromTheIntendedCommitNotFromWhenTheCommitWasMade() {
    OutboxTimeline t = timeline();
    // Commit 150 is due at 1,500 ms, made 30 ms late; its rows arrive 5 ms after the acknowledgement.
    t.committed(150, t.dueAt(150) + 30 * MS);
    for (long row = 1_500; row < 1_510; row++) {
      t.received(body(t, row), t.dueAt(150) + 35 * MS);
    }
    OutboxTimeline.Summary s = t.summarize();
    assertEquals(10, s.receivedInWindow());
    assertEquals(35_000, s.recording().latency.quantile(1.0), 35);
    assertEquals(5_000, s.recording().service.quantile(1.0), 5);
    assertEquals(30_000, s.recording().lag.quantile(1.0), 30);
    assertEquals(1, s.commitLag().count(), "one commit");
    assertEquals(30_000, s.commitLag().quantile(1.0), 30);
  }

  @Test
  void aRowReceivedBeforeItsCommitsAnswerHasNoRelayTimeOfItsOwn() {
    OutboxTimeline t = timeline();
    t.received(body(t, 1_000), t.dueAt(100) + 2 * MS);
    t.committed(100, t.dueAt(100) + 3 * MS);
    OutboxTimeline.Summary s = t.summarize();
    assertEquals(2_000, s.recording().latency.quantile(1.0), 2);
    assertEquals(0, s.recording().service.quantile(1.0));
  }

  @Test
  void onlyRowsDueInTheWindowAreMeasuredButEveryArrivalInItCountsTowardsTheRate() {
    OutboxTimeline t = timeline();
    t.committed(99, t.dueAt(99) + MS); // warm-up, due at 990 ms
    t.committed(100, t.dueAt(100) + MS);
    t.received(body(t, 990), t.dueAt(100) + 5 * MS); // a warm-up row arriving in the window
    t.received(body(t, 1_000), t.dueAt(100) + 5 * MS);
    OutboxTimeline.Summary s = t.summarize();
    assertEquals(10, s.committedInWindow(), "commit 100's rows");
    assertEquals(1, s.receivedInWindow());
    assertEquals(9, s.missing(), "the rest of commit 100");
    assertEquals(2, s.receivedDuringWindow());
    assertEquals(1, s.recording().latency.count());
  }

  @Test
  void theCommitLagCountsEveryCommitAcknowledgedInTheWindowReceivedOrNot() {
    OutboxTimeline t = timeline();
    t.committed(100, t.dueAt(100) + 7 * MS);
    t.committed(101, t.dueAt(101) + 9 * MS);
    t.committed(50, t.dueAt(50) + 500 * MS); // warm-up
    OutboxTimeline.Summary s = t.summarize();
    assertEquals(2, s.commitLag().count());
    assertEquals(9_000, s.commitLag().quantile(1.0), 9);
    assertEquals(20, s.missing());
  }

  @Test
  void aRowSeenTwiceIsADuplicateAndAMessageNotOfThisRunIsForeign() {
    OutboxTimeline t = timeline();
    t.committed(120, t.dueAt(120) + MS);
    t.received(body(t, 1_200), t.dueAt(120) + 2 * MS);
    t.received(body(t, 1_200), t.dueAt(120) + 9 * MS);
    t.received(OutboxBody.of(t.stamp(120) + 1, 1_201, 100), t.dueAt(120) + 9 * MS); // the wrong time for its row
    t.received(OutboxBody.of(t.stamp(120), 99_999, 100), t.dueAt(120) + 9 * MS); // beyond the schedule
    t.received("hello", t.dueAt(120) + 9 * MS);
    OutboxTimeline.Summary s = t.summarize();
    assertEquals(1, s.duplicates());
    assertEquals(3, s.foreign());
    assertEquals(1, s.receivedInWindow());
    assertEquals(2_000, s.recording().latency.quantile(1.0), 2, "the first arrival counts");
  }

  @Test
  void aFailedCommitsRowsAreNotMissingButNotCommittedEither() {
    OutboxTimeline t = timeline();
    t.commitFailed(130);
    OutboxTimeline.Summary s = t.summarize();
    assertEquals(10, s.failedInWindow());
    assertEquals(0, s.commitLag().count());
    assertEquals(0, s.missing());
    assertEquals(0, t.committedInWindow());
  }
}
