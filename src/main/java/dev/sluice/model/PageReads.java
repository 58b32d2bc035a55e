package dev.sluice.model;

/**
 * Owned by a paged queue's {@link BacklogOperations}, on the shard event loop that owns the queue:
 * the read state machine that brings durable-only rows back in delivery order (design page §2.6),
 * one page read at a time (I5), each bounded so that it never misses a row nor reads one twice: up
 * to the last due position, short of the first uncommitted row and of the first extra after R.
 */
final class PageReads {
  private final ShardResources env;
  private final HeadWindow window;
  private final MessageStore store;
  private final QueueState queue;
  private final Backlog backlog;
  private final BacklogOperations operations;
  private final ResidentRegion region;
  private final BacklogCounts counts;
  private final UncommittedSpills uncommitted;
  /** The one page read under way (I5), or null. */
  private PageRequest reading;
  /**
   * The read under way covers every row due when it was asked, and no row was counted or uncounted
   * since: if it comes back short of its limits, nothing may be left due.
   */
  private boolean readingAllDue;
  /** Something readable changed while the read ran: its answer is followed by another look. */
  private boolean changedWhileReading;
  /** The last complete read came back short with rows still counted due: see {@link #accept}. */
  private boolean lastReadShort;
  /** Rows a page brought that were resident already; never anything but 0 (asserted by tests). */
  private long duplicateRows;
  /** Complete reads that left the due count above 0 (each is read again, see {@link #accept}). */
  private long shortReads;
  /** Two such reads in a row: the count was wrong, and was set right. */
  private long countResyncs;

  PageReads(ShardResources env, MessageStore store, QueueState queue, Backlog backlog, BacklogOperations operations,
      ResidentRegion region, BacklogCounts counts, UncommittedSpills uncommitted) {
    this.env = env;
    this.window = env.window();
    this.store = store;
    this.queue = queue;
    this.backlog = backlog;
    this.operations = operations;
    this.region = region;
    this.counts = counts;
    this.uncommitted = uncommitted;
  }

  /** Whether a read is under way: rows may come that no decision taken now can see. */
  boolean running() {
    return reading != null;
  }

  /**
   * Rows were counted, uncounted or became due: the read under way (if any) no longer covers every
   * due row, and its answer is followed by another look.
   */
  void countsChanged() {
    readingAllDue = false;
    changedWhileReading = reading != null || changedWhileReading;
  }

  /** Something readable changed while the read ran (see {@link BacklogOperations#poke}). */
  void changedWhileRunning() {
    changedWhileReading = true;
  }

  /** At a safe point: asks for a page in the background if the resident head has run low. */
  void readIfLow(long nowMillis) {
    if (canRead(true)) {
      PageRequest request = request(nowMillis);
      reading = request;
      env.backlog().readPage(queue, request);
    }
  }

  /**
   * A receive or a move came up short: reads a page at once if the store can, accepting it without
   * serving waiting receives (the caller is serving one). True if rows came; false leaves the read
   * to a later turn.
   */
  boolean pageNow(long nowMillis) {
    if (!canRead(false)) {
      return false;
    }
    PageRequest request = request(nowMillis);
    PageResult result = env.backlog().readNow(request);
    if (result == null) {
      operations.poke(nowMillis);
      return false;
    }
    reading = request;
    accept(request, result, nowMillis, false);
    return !result.rows().isEmpty();
  }

  /** Whether a page is being read, or could be read now: a receive that found nothing may wait for it. */
  boolean coming() {
    return running() || canRead(false);
  }

  /**
   * A read is possible now, and (prefetch) worth asking for: the visible head is below half. The
   * head, not the window: extras never keep due rows from being read (see {@link ResidentRegion}).
   * On a FIFO queue, visible messages may all be in locked groups: it reads below half a window of
   * never-received messages, or whenever nothing is receivable (up to the window, §2.12).
   */
  private boolean canRead(boolean prefetch) {
    return !backlog.closed() && reading == null && !operations.expiring() && counts.due() > 0 && region.head() < window.messages()
        && (!prefetch || (backlog.fifo() ? 2L * region.head() < window.messages() || !store.hasReceivable()
            : 2L * store.readyCount() < window.messages()))
        && (env.budget().usedBytes() < env.budget().limitBytes() || region.head() == 0)
        && readBound().compareTo(region.frontier()) > 0;
  }

  /**
   * §2.6: up to the last due position, short of the first row not committed yet, and short of the
   * first extra after R: one whose delay has ended may be evicted by its (late) timer while the read
   * runs, and a read that passed its place would leave its row behind R, never read.
   */
  private DeliveryPosition readBound() {
    DeliveryPosition bound = lastDuePosition();
    DeliveryPosition firstUncommitted = uncommitted.min();
    if (firstUncommitted != null && firstUncommitted.compareTo(bound) <= 0) {
      bound = firstUncommitted.predecessor();
    }
    DeliveryPosition firstExtra = region.firstExtraAfterFrontier();
    return firstExtra != null && firstExtra.compareTo(bound) <= 0 ? firstExtra.predecessor() : bound;
  }

  /**
   * Standard: the last position before the matured bound. FIFO: every durable-only row is due (a
   * delayed one holds its group's place once read), and each has a sequence number the queue gave
   * out already; a row counted after the request gets a later one, so the read cannot pass it over.
   */
  private DeliveryPosition lastDuePosition() {
    return backlog.fifo() ? new DeliveryPosition(queue.lastSequenceNumber(), Long.MAX_VALUE)
        : counts.lastDuePosition();
  }

  private PageRequest request(long nowMillis) {
    long available = env.budget().limitBytes() - env.budget().usedBytes();
    // A queue with nothing resident may always read one small page, so that other queues' windows
    // never starve it (§2.14).
    int rows = Math.min(window.messages() - region.head(), window.pageRows());
    long bytes = window.bytes();
    if (available <= 0) {
      rows = Math.min(rows, 10);
    } else {
      bytes = Math.min(bytes, available);
    }
    DeliveryPosition bound = readBound();
    readingAllDue = bound.equals(lastDuePosition());
    changedWhileReading = false;
    if (!backlog.fifo()) {
      // Rows spilled while the read runs must be beyond it, or one that commits late could be passed
      // over: they become visible now or later and take later keys. (§2.6 argues "after the matured
      // bound", which fails within the millisecond the bound matured in.)
      bound = DeliveryPosition.min(bound, new DeliveryPosition(nowMillis, store.nextKey() - 1));
    }
    return new PageRequest(store.metadata().generation(), backlog.epoch(), region.frontier(), bound,
        backlog.purgedBelowKey(), rows, bytes, backlog.fifo());
  }

  /**
   * The answer to the page read under way (§2.6): rows are restored in order behind the resident
   * ones, expired ones are deleted, and the frontier moves to the last row. A stale answer (asked
   * before a purge, or for a deleted queue) is dropped.
   */
  void accept(PageRequest request, PageResult result, long nowMillis, boolean serveWaiters) {
    if (request != reading) {
      return; // not the read under way: nothing was asked, or it was answered already
    }
    reading = null;
    if (backlog.closed() || request.epoch() != backlog.epoch()) {
      operations.poke(nowMillis);
      return;
    }
    long retentionMillis = store.attributes().retentionMillis();
    for (RestoredMessage r : result.rows()) {
      region.reached(DeliveryPosition.of(r));
      if (store.find(r.key()) != null) {
        duplicateRows++; // cannot happen (I1); counted so that tests and metrics can tell
        continue;
      }
      backlog.pagedIn(r);
      if (r.sentAtMillis() + retentionMillis <= nowMillis) {
        Message expired = ArrivingMessages.restored(r, ArrivingMessages.payload(r), 0, nowMillis); // to log its delete
        expired.ownedBy(store);
        env.changes().messageDeleted(store, expired);
      } else {
        store.restoreFromPage(r, nowMillis);
      }
    }
    // Every due row was in range and fewer came than asked, yet rows are counted due: the reader
    // may have missed rows (it is asked again), or, twice in a row, the count was wrong. Set right
    // at once, any bound bug would turn into rows never read again.
    boolean shortRead = readingAllDue && !result.reachedLimit() && result.rows().size() < request.maxRows()
        && counts.due() > 0;
    if (shortRead && lastReadShort) {
      counts.resyncAfterCompleteRead();
      countResyncs++;
    }
    shortReads += shortRead ? 1 : 0;
    lastReadShort = shortRead && !lastReadShort;
    if (serveWaiters) {
      store.tellReceivable(nowMillis);
    }
    if (!result.rows().isEmpty() || changedWhileReading || lastReadShort) {
      // More may follow. An empty answer with nothing changed since it was asked would be empty
      // again: what makes rows readable (a commit, a spill, a bucket maturing) looks again by itself.
      operations.poke(nowMillis);
    }
  }

  /** A purge: what the reads before it found says nothing about the counts after it. */
  void purged() {
    lastReadShort = false;
  }

  long duplicateRows() {
    return duplicateRows;
  }

  long shortReads() {
    return shortReads;
  }

  long countResyncs() {
    return countResyncs;
  }
}
