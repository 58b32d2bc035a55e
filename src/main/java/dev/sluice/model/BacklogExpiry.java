package dev.sluice.model;

/**
 * Owned by a paged queue's {@link BacklogOperations}, on the shard event loop that owns the queue:
 * retention of the rows held only by the durable store (design page §2.10), and the refresh of their
 * oldest sent time (§2.7). Resident messages expire through the queue's own retention sweep;
 * durable-only rows are deleted where they are, in bounded chunks, never read back to be dropped.
 *
 * <p>An expiry is asked for when the oldest durable-only row's retention ends, and, while that
 * oldest is not known exactly (a page read took the row that held it), a second later to measure
 * it again. It is a backlog operation like a page read: one at a time per queue (I5), so the rows
 * it deletes are rows no read is bringing back; the queue uncounts exactly the rows it reports.
 */
final class BacklogExpiry {
  /** The most rows one expiry deletes; more are deleted by the next, at once. */
  static final int CHUNK_ROWS = 5_000;
  /** How soon a stale oldest sent time is measured again. */
  static final long REFRESH_MILLIS = 1_000;

  private final ShardResources env;
  private final MessageStore store;
  private final QueueState queue;
  private final Backlog backlog;
  private final BacklogOperations operations;
  private final BacklogCounts counts;
  private final Wake wake = new Wake();
  /** The one expiry under way, or null. */
  private ExpiryRequest running;
  /**
   * No expiry before this, after one that stopped short of its limit: what it left is not deletable
   * yet (a delayed row is deleted once it is visible too, see ExpirySql), and that row, expired, is
   * still the oldest; without the floor the next expiry was due at once, again and again, and page
   * reads, which wait for expiries (I5), never got their turn.
   */
  private long notBeforeMillis = Long.MIN_VALUE;
  private long rowsExpired;

  BacklogExpiry(ShardResources env, MessageStore store, QueueState queue, Backlog backlog, BacklogOperations operations,
      BacklogCounts counts) {
    this.env = env;
    this.store = store;
    this.queue = queue;
    this.backlog = backlog;
    this.operations = operations;
    this.counts = counts;
  }

  boolean running() {
    return running != null;
  }

  /**
   * Looks when the next expiry is due: the oldest durable-only row's retention end, or soon if that
   * oldest is stale; never while nothing is durable-only.
   */
  void schedule(long nowMillis) {
    if (counts.pagedOut() == 0 || backlog.closed()) {
      env.index().cancel(wake);
      return;
    }
    long at = counts.oldestStale() ? nowMillis + REFRESH_MILLIS
        : saturatedSum(counts.oldestSentAtMillis(), store.attributes().retentionMillis());
    at = Math.max(at, Math.max(nowMillis, notBeforeMillis));
    if (!wake.isScheduled() || wake.dueAtMillis() > at) {
      env.index().schedule(wake, at);
    }
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  /** The retention changed: the next expiry is due by the new one. */
  void retentionChanged(long nowMillis) {
    env.index().cancel(wake);
    schedule(nowMillis);
  }

  private void start(long nowMillis) {
    if (running != null || backlog.closed() || counts.pagedOut() == 0) {
      return;
    }
    if (operations.reading()) {
      // One backlog operation at a time (I5): the read's answer schedules this again
      // (BacklogOperations.accept); the timer is only a fallback.
      env.index().schedule(wake, nowMillis + REFRESH_MILLIS);
      return;
    }
    counts.markOldest();
    running = new ExpiryRequest(store.metadata().generation(), backlog.epoch(), backlog.fifo(), backlog.frontier(),
        nowMillis - store.attributes().retentionMillis(), backlog.purgedBelowKey(), CHUNK_ROWS);
    env.backlog().expire(queue, running);
  }

  /**
   * The answer to the expiry under way: the rows it deleted are uncounted, the oldest sent time is
   * set to what it measured (with what was counted since), and the next expiry is due at once if it
   * stopped at its limit. A stale answer (asked before a purge, or for a deleted queue) is dropped.
   */
  void accept(ExpiryRequest request, ExpiryResult result, long nowMillis) {
    if (request != running) {
      return;
    }
    running = null;
    if (backlog.closed()) {
      return;
    }
    if (request.epoch() == backlog.epoch()) {
      for (ExpiryResult.Row row : result.deleted()) {
        backlog.expired(row);
      }
      rowsExpired += result.deleted().size();
      if (result.oldestSentAtMillis() != ExpiryResult.UNKNOWN) {
        counts.refreshOldest(result.oldestSentAtMillis());
      }
    }
    if (result.reachedLimit() && request.epoch() == backlog.epoch()) {
      env.index().schedule(wake, nowMillis);
    } else {
      env.index().cancel(wake);
      notBeforeMillis = nowMillis + REFRESH_MILLIS;
      schedule(nowMillis);
    }
  }

  /** The queue was deleted, or purged: nothing is due until rows are counted again. */
  void cancel() {
    env.index().cancel(wake);
  }

  /** Durable-only rows deleted by expiries so far (tests). */
  long rowsExpired() {
    return rowsExpired;
  }

  private final class Wake extends Timed {
    @Override
    public void onDue(long nowMillis) {
      start(nowMillis);
    }
  }
}
