package dev.sluice.loadtest;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Every row of the outbox latency phase, from its intended commit to its first receipt. Commit k of
 * the open-loop schedule holds rows k × rowsPerCommit onwards; the committer notes when each commit
 * was acknowledged (or that it failed), the consumers when each row was first received. Only at the
 * end are the latencies computed, from the schedule's intended times: a row can be received before
 * its commit's acknowledgement reaches the committer, so nothing is known per row before then.
 * Written from several event loops at once (atomics, one slot per commit and per row), read once
 * the phase is over.
 */
final class OutboxTimeline {
  /** A slot's value before anything happened; times are stored as nanoseconds since origin, plus one. */
  private static final long NOT_YET = 0;
  private static final long FAILED = -1;

  private final OpenLoopSchedule schedule;
  private final long originNanos;
  private final int rowsPerCommit;
  private final long windowFromNanos;
  private final long windowToNanos;
  private final int commits;
  private final AtomicLongArray committedAt;
  private final AtomicLongArray receivedAt;
  private final AtomicLong receivedInWindow = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong foreign = new AtomicLong();

  /**
   * What the phase comes to: latencies of the rows received as an open-loop {@link Recording}, the
   * application's own commit lag (intended → acknowledged) of every commit acknowledged, received
   * or not, and the counts.
   */
  record Summary(Recording recording, Histogram commitLag, long committedInWindow, long failedInWindow, long receivedInWindow,
      long missing, long receivedDuringWindow, long duplicates, long foreign) {}

  /** The schedule's commits due before {@code windowToNanos}; rows due in [from, to) are measured. */
  OutboxTimeline(OpenLoopSchedule schedule, long originNanos, int rowsPerCommit, long windowFromNanos,
      long windowToNanos) {
    this.schedule = schedule;
    this.originNanos = originNanos;
    this.rowsPerCommit = rowsPerCommit;
    this.windowFromNanos = windowFromNanos;
    this.windowToNanos = windowToNanos;
    this.commits = Math.toIntExact(schedule.dueBy(Long.MAX_VALUE, windowToNanos, 0));
    this.committedAt = new AtomicLongArray(commits);
    this.receivedAt = new AtomicLongArray(commits * rowsPerCommit);
  }

  int commits() {
    return commits;
  }

  int rowsPerCommit() {
    return rowsPerCommit;
  }

  long dueAt(long commit) {
    return schedule.dueAt(commit);
  }

  /** What a row's body carries: its commit's intended time as nanoseconds since the origin. */
  long stamp(long commit) {
    return schedule.dueAt(commit) - originNanos;
  }

  void committed(long commit, long nanos) {
    committedAt.set((int) commit, nanos - originNanos + 1);
  }

  /** A commit that failed, or never started (the committer had too many open). */
  void commitFailed(long commit) {
    committedAt.set((int) commit, FAILED);
  }

  /** A message received at {@code nanos}; counted apart when it is not one of this run's rows, or seen before. */
  void received(String body, long nanos) {
    OutboxBody.Parsed p = OutboxBody.parse(body);
    if (p.row() < 0 || p.row() >= receivedAt.length() || p.intendedNanos() != stamp(p.row() / rowsPerCommit)) {
      foreign.incrementAndGet();
      return;
    }
    if (!receivedAt.compareAndSet((int) p.row(), NOT_YET, nanos - originNanos + 1)) {
      duplicates.incrementAndGet();
      return;
    }
    if (inWindow(p.row() / rowsPerCommit)) {
      receivedInWindow.incrementAndGet();
    }
  }

  /** Rows due in the window received so far: cheap, for waiting on the stragglers. */
  long receivedInWindow() {
    return receivedInWindow.get();
  }

  /** Rows due in the window whose commit was acknowledged so far. */
  long committedInWindow() {
    long rows = 0;
    for (int k = 0; k < commits; k++) {
      if (inWindow(k) && committedAt.get(k) > 0) {
        rows += rowsPerCommit;
      }
    }
    return rows;
  }

  private boolean inWindow(long commit) {
    long due = schedule.dueAt(commit);
    return due >= windowFromNanos && due < windowToNanos;
  }

  Summary summarize() {
    Recording r = new Recording(true, windowFromNanos);
    Histogram commitLag = new Histogram();
    long committed = 0;
    long failed = 0;
    long received = 0;
    long missing = 0;
    long duringWindow = 0;
    for (int k = 0; k < commits; k++) {
      long due = schedule.dueAt(k);
      long ack = committedAt.get(k);
      boolean measured = inWindow(k);
      if (measured) {
        if (ack > 0) {
          committed += rowsPerCommit;
          commitLag.record((originNanos + ack - 1 - due) / 1000);
        } else if (ack == FAILED) {
          failed += rowsPerCommit;
        }
      }
      for (int row = k * rowsPerCommit; row < (k + 1) * rowsPerCommit; row++) {
        long got = receivedAt.get(row);
        if (got == NOT_YET) {
          // A failed commit may still have committed (its answer was lost): missing only when acknowledged.
          missing += measured && ack > 0 ? 1 : 0;
          continue;
        }
        long receivedNanos = originNanos + got - 1;
        if (receivedNanos >= windowFromNanos && receivedNanos < windowToNanos) {
          duringWindow++;
        }
        if (measured) {
          received++;
          // sentAt is the acknowledgement: Recording's service time is then the relay's part alone
          // (acknowledged → received) and its lag the application's own commit (due → acknowledged).
          long acknowledged = ack > 0 ? originNanos + ack - 1 : due;
          r.succeeded(due, Math.min(acknowledged, receivedNanos), receivedNanos, 1);
        }
      }
    }
    return new Summary(r, commitLag, committed, failed, received, missing, duringWindow, duplicates.get(), foreign.get());
  }
}
