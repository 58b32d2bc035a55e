package dev.sluice.model;

/**
 * Owned by its queue's {@link Backlog}, on the shard event loop that owns the queue: the backlog
 * operations, page reads ({@link PageReads}) and expiries ({@link BacklogExpiry}), one at a time
 * (I5), and when the queue looks at its durable-only rows again: at a safe point, on this backlog's
 * one timer, or for the move task waiting for a page. Kept apart from {@link Backlog}, which
 * decides what is admitted, spilled or evicted and counts it; this class sequences what follows.
 */
final class BacklogOperations {
  private final ShardResources env;
  private final MessageStore store;
  private final Backlog backlog;
  private final BacklogCounts counts;
  /** Whether the queue pages. Unpaged, none of the structures below is allocated. */
  private final boolean paged;
  private final PageReads reads;
  private final BacklogExpiry expiry;
  private final Wake wake;
  /**
   * A move task that found nothing resident while rows were due (§2.13): it waits for the next
   * page, or for the count of due rows to drop (a failed write, a purge), whichever comes first.
   */
  private Timed pagedWaiter;

  BacklogOperations(ShardResources env, MessageStore store, QueueState queue, Backlog backlog, ResidentRegion region,
      BacklogCounts counts, UncommittedSpills uncommitted) {
    this.env = env;
    this.store = store;
    this.backlog = backlog;
    this.counts = counts;
    this.paged = env.window().paged();
    this.wake = paged ? new Wake() : null;
    this.reads = paged ? new PageReads(env, store, queue, backlog, this, region, counts, uncommitted) : null;
    this.expiry = paged ? new BacklogExpiry(env, store, queue, backlog, this, counts) : null;
  }

  /**
   * Rows were counted or uncounted: the read under way no longer covers every due row (see
   * {@link PageReads#countsChanged}), and the timer is set for the earliest bucket to mature.
   */
  void countsChanged() {
    reads.countsChanged();
    scheduleMaturity();
  }

  /** See {@link BacklogExpiry#schedule}. */
  void scheduleExpiry(long nowMillis) {
    expiry.schedule(nowMillis);
  }

  /** See {@link BacklogExpiry#accept}; then a read that waited for it may start. */
  void acceptExpiry(ExpiryRequest request, ExpiryResult result, long nowMillis) {
    if (paged) {
      poke(nowMillis); // first: a read that waited for the expiry goes before the next expiry's timer
      expiry.accept(request, result, nowMillis);
      if (counts.due() == 0) {
        wakePagedWaiter(nowMillis);
      }
    }
  }

  /** The queue's retention changed: durable-only rows expire by the new one. */
  void retentionChanged(long nowMillis) {
    if (paged) {
      expiry.retentionChanged(nowMillis);
    }
  }

  /** Whether a page read is under way (an expiry waits for it: I5). */
  boolean reading() {
    return reads.running();
  }

  /** Whether an expiry is under way (a page read waits for it: I5). */
  boolean expiring() {
    return paged && expiry.running();
  }

  /** Durable-only rows deleted by expiries so far (tests). */
  long rowsExpired() {
    return paged ? expiry.rowsExpired() : 0;
  }

  void scheduleMaturity() {
    long at = counts.nextMaturityAt();
    if (at != Long.MAX_VALUE && (!wake.isScheduled() || wake.dueAtMillis() > at)) {
      env.index().schedule(wake, at);
    }
  }

  /**
   * Something readable may have changed: the queue looks again in a later turn, a safe point; or,
   * while a read runs, once it is answered.
   */
  void poke(long atMillis) {
    if (paged && reads.running()) {
      reads.changedWhileRunning();
    } else if (paged && !backlog.closed() && counts.due() > 0
        && (!wake.isScheduled() || wake.dueAtMillis() > atMillis)) {
      env.index().schedule(wake, atMillis);
    }
  }

  /**
   * At a safe point (the end of a shard call, or this backlog's own timer): due rows are counted as
   * such, waiting receives may take them (through a store that reads at once), and a page is asked
   * for in the background if the resident head has run low.
   */
  void maintain(long nowMillis) {
    if (!paged || backlog.closed()) {
      return;
    }
    if (counts.mature(nowMillis)) {
      reads.countsChanged(); // rows became due that the read under way does not cover
    }
    scheduleMaturity();
    if (counts.due() > 0) {
      store.tellReceivable(nowMillis);
    }
    reads.readIfLow(nowMillis);
  }

  /** See {@link PageReads#pageNow}. */
  boolean pageNow(long nowMillis) {
    return paged && reads.pageNow(nowMillis);
  }

  /**
   * Whether a page of due durable-only rows is being read, or will be by the end of this shard call
   * (nothing is receivable in memory, so the head is low).
   */
  boolean pageComing() {
    return paged && reads.coming();
  }

  /** See {@link PageReads#accept}. */
  void accept(PageRequest request, PageResult result, long nowMillis, boolean serveWaiters) {
    if (paged) {
      reads.accept(request, result, nowMillis, serveWaiters);
      wakePagedWaiter(nowMillis); // rows came, or the counts were set right, or the answer was stale
      expiry.schedule(nowMillis); // the oldest may have been read
    }
  }

  /** See {@link QueueMoves#whenPaged}. One waiter at a time: a queue runs one move task at a time. */
  boolean whenPaged(Timed task) {
    if (!backlog.hasDueRows()) {
      return false;
    }
    pagedWaiter = task;
    return true;
  }

  boolean hasPagedWaiter() {
    return pagedWaiter != null;
  }

  /**
   * The move task waiting for a page, if any, looks again (after a purge: finds nothing left, and
   * completes). Scheduled rather than called: an answer may be accepted within a receive, and a
   * move step taken there would re-enter the queue's structures.
   */
  void wakePagedWaiter(long nowMillis) {
    if (pagedWaiter != null) {
      Timed task = pagedWaiter;
      pagedWaiter = null;
      env.index().schedule(task, nowMillis);
    }
  }

  /** A purge: what the reads before it found says nothing any more, and nothing is due until rows are counted again. */
  void purged() {
    if (paged) {
      reads.purged();
      expiry.cancel();
      env.index().cancel(wake);
    }
  }

  /** The queue was deleted: nothing more is read or expired. */
  void close() {
    if (paged) {
      expiry.cancel();
      env.index().cancel(wake);
    }
  }

  /** Rows a page brought that were resident already; never anything but 0 (asserted by tests). */
  long duplicateRows() {
    return paged ? reads.duplicateRows() : 0;
  }

  /** Complete reads that came back short with rows still counted due (each is read again). */
  long shortReads() {
    return paged ? reads.shortReads() : 0;
  }

  /** Two short complete reads in a row: the due count was wrong, and was set right. */
  long countResyncs() {
    return paged ? reads.countResyncs() : 0;
  }

  /** This backlog's one timer: the earliest future bucket is due, or a look is wanted soon. */
  private final class Wake extends Timed {
    @Override
    public void onDue(long nowMillis) {
      maintain(nowMillis);
    }
  }
}
