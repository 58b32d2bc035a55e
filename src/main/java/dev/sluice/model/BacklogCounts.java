package dev.sluice.model;

/**
 * Owned by its queue's {@link Backlog}, on the shard event loop that owns the queue: exact counts
 * of the queue's durable-only rows (I4), those being written included, without holding the rows.
 *
 * <p>A row is due (visible) when it first becomes visible before {@link #maturedBound}, and future
 * (delayed) otherwise, counted by due time in {@link DueCounts} buckets. A bucket matures, all its
 * rows due at once, at its last millisecond; so a durable-only row is counted visible, and can be
 * read, up to one bucket late (1 ms in tests, so tests see exact counts). The rows a page read may
 * take are exactly the due ones: those before the matured bound.
 */
final class BacklogCounts {
  /** Of every queue that is not paged: it has no durable-only rows, and this is never changed. */
  static final BacklogCounts NONE = new BacklogCounts(1, false);

  private final long bucketMillis;
  private long pagedOut;
  private long due;
  private long maturedBound;
  private final DueCounts future;
  /** The oldest sent time among durable-only rows, or MAX_VALUE; see {@link #oldestSentAtMillis}. */
  private long oldestSentAt = Long.MAX_VALUE;
  private boolean oldestStale;
  /** The oldest sent time counted since {@link #markOldest}: rows a measurement may not have seen. */
  private long oldestSinceMark = Long.MAX_VALUE;

  /**
   * @param everyRowDue a FIFO queue's: every durable-only row may be read (a delayed one holds its
   *     group's place once read), so none is counted future; which are delayed is counted apart
   */
  BacklogCounts(long bucketMillis, boolean everyRowDue) {
    this.bucketMillis = bucketMillis;
    this.future = new DueCounts(bucketMillis);
    this.maturedBound = everyRowDue ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  /** A row became durable-only (spilled or evicted). */
  void add(long firstVisibleAt, long sentAtMillis, long nowMillis) {
    pagedOut++;
    if (firstVisibleAt < maturedBound) {
      due++;
    } else {
      future.add(firstVisibleAt);
      mature(nowMillis);
    }
    oldestSentAt = Math.min(oldestSentAt, sentAtMillis);
    oldestSinceMark = Math.min(oldestSinceMark, sentAtMillis);
  }

  /** A measurement of the oldest sent time in the durable store starts now. */
  void markOldest() {
    oldestSinceMark = Long.MAX_VALUE;
  }

  /**
   * The oldest sent time among durable-only rows as the durable store measured it since
   * {@link #markOldest}, or MAX_VALUE if it found none: exact again, with the rows counted since.
   */
  void refreshOldest(long measuredMillis) {
    oldestSentAt = pagedOut == 0 ? Long.MAX_VALUE : Math.min(measuredMillis, oldestSinceMark);
    oldestStale = false;
  }

  /** A durable-only row's write failed for good: it never existed. */
  void removeFailed(long firstVisibleAt, long sentAtMillis) {
    pagedOut--;
    if (firstVisibleAt < maturedBound) {
      due--;
    } else {
      future.remove(firstVisibleAt);
    }
    forgetOldest(sentAtMillis);
    if (pagedOut == 0) {
      oldestSentAt = Long.MAX_VALUE;
      oldestStale = false;
    }
  }

  /** A due row was read back (restored, or deleted as expired). */
  void pagedIn(long sentAtMillis) {
    pagedOut--;
    due--;
    forgetOldest(sentAtMillis);
    if (pagedOut == 0) {
      oldestSentAt = Long.MAX_VALUE;
      oldestStale = false;
    }
  }

  /**
   * A read that covered every due row came back short of its limit with {@link #due} still above 0,
   * twice in a row with nothing changed between: the count was wrong (it must not happen), and is
   * set right, as nothing more would ever be read for it. The first such read may only have missed
   * rows (a reader behind the commits it was told of): the caller reads again.
   */
  void resyncAfterCompleteRead() {
    pagedOut -= due;
    due = 0;
    if (pagedOut == 0) {
      oldestSentAt = Long.MAX_VALUE;
      oldestStale = false;
    }
  }

  /**
   * Moves every future bucket whose rows are all due at {@code nowMillis} into the due count; true
   * if any did.
   */
  boolean mature(long nowMillis) {
    boolean any = false;
    while (future.earliestBucketDueAt() <= nowMillis) {
      long end = future.earliestBucketStart() + bucketMillis;
      due += future.takeDue(nowMillis);
      maturedBound = Math.max(maturedBound, end);
      any = true;
    }
    return any;
  }

  /**
   * The last position a read may take as due: every position first visible before the bound; MIN
   * while nothing has matured (no position is due, and {@code maturedBound - 1} would overflow).
   */
  DeliveryPosition lastDuePosition() {
    return maturedBound == Long.MIN_VALUE ? DeliveryPosition.MIN
        : new DeliveryPosition(maturedBound - 1, Long.MAX_VALUE);
  }

  /** When the earliest future bucket matures, or MAX_VALUE when none. */
  long nextMaturityAt() {
    return future.earliestBucketDueAt();
  }

  /** Whether a durable-only row not due yet could come at or before {@code firstVisibleAt}. */
  boolean futureRowBy(long firstVisibleAt) {
    return future.earliestBucketStart() <= firstVisibleAt;
  }

  /**
   * Start-up (lazy recovery, design §2.15): {@code pagedOut} rows are in the durable store only, as
   * its tallies say. Of them, those first visible after {@code dueThroughMillis} are given by due
   * time ({@code future}: any due time in a bucket, and its count); the rest are due. Rows first
   * visible up to that moment are then exactly those a page read may take as due.
   */
  void recovered(long pagedOut, java.util.Map<Long, Integer> future, long oldestSentAtMillis, long dueThroughMillis) {
    clear();
    future.forEach(this.future::add);
    // Never fewer than the store counted as delayed: a tally short of its rows counts them all.
    this.pagedOut = Math.max(pagedOut, this.future.total());
    due = this.pagedOut - this.future.total();
    maturedBound = Math.max(maturedBound, dueThroughMillis + 1);
    oldestSentAt = this.pagedOut == 0 ? Long.MAX_VALUE : oldestSentAtMillis;
  }

  /** A purge: no durable-only row is left. */
  void clear() {
    pagedOut = 0;
    due = 0;
    future.clear();
    oldestSentAt = Long.MAX_VALUE;
    oldestStale = false;
  }

  long pagedOut() {
    return pagedOut;
  }

  long due() {
    return due;
  }

  long delayed() {
    return future.total();
  }

  /**
   * The oldest sent time among durable-only rows, or MAX_VALUE when none. Exact until the row that
   * held it is read back or fails ({@link #oldestStale}): it then stays as it was, still exact while
   * that row is resident (the queue's oldest counts residents too), and older than the truth once
   * that row is deleted, until it is measured again (see {@link BacklogExpiry}).
   */
  long oldestSentAtMillis() {
    return oldestSentAt;
  }

  boolean oldestStale() {
    return oldestStale;
  }

  private void forgetOldest(long sentAtMillis) {
    if (sentAtMillis == oldestSentAt) {
      oldestStale = true;
    }
  }
}
