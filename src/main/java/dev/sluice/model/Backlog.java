package dev.sluice.model;

/**
 * Owned by its queue's {@link MessageStore}, on the shard event loop that owns the queue: which of
 * the queue's never-received messages are kept in memory and which only by the durable store
 * (design page "Durable queues larger than memory", §2.1–2.7, 2.15).
 *
 * <p>At most {@link HeadWindow#messages} never-received messages are resident, all at or before
 * the frontier R; every durable-only ("paged out") row is after it; received messages are always
 * resident. A send beyond the window, or one that would overtake a durable-only row, is spilled:
 * its row is written and it is only counted here, exactly (due, and future by due time). Rows come
 * back in delivery order, one page read at a time, bounded by the due rows and short of rows whose
 * write has not committed, so no read misses a row or reads one twice. Unpaged (memory mode,
 * paging off, FIFO queues) every message is resident and a spent budget refuses sends, as ever.
 * Pure: no clock, no I/O; the durable store is asked through {@link BacklogStore}.
 */
final class Backlog {
  private final ShardResources env;
  private final HeadWindow window;
  private final MessageStore store;
  private final QueueState queue;
  /** Whether messages may leave memory at all: a bounded window on a standard queue. */
  private final boolean paged;
  /** R: no resident never-received message is after it, no durable-only row at or before it. */
  private DeliveryPosition frontier = DeliveryPosition.MIN;
  private final BacklogCounts counts;
  private final UncommittedSpills uncommitted = new UncommittedSpills();
  /** Resident never-received messages: see {@link Message#inWindow}. */
  private int inWindow;
  /** Bumped by purge: an answer to a read asked before it is stale (I5). */
  private long epoch;
  private long purgedBelowKey;
  /** The one page read under way (I5), or null; and whether it reads every due row it can. */
  private PageRequest reading;
  /** The read under way covers every row due when asked, none (un)counted since: short, none is left due. */
  private boolean readingAllDue;
  private boolean closed;
  /** Rows a page brought that were resident already; never anything but 0 (asserted by tests). */
  private long duplicateRows;
  /** Complete reads that left the due count above 0: the count was wrong, and was set right. */
  private long countResyncs;
  private final Wake wake = new Wake();

  Backlog(ShardResources env, MessageStore store, QueueState queue, boolean fifo) {
    this.env = env;
    this.window = env.window();
    this.store = store;
    this.queue = queue;
    this.paged = env.window().paged() && !fifo;
    this.counts = new BacklogCounts(window.bucketMillis());
  }

  // ---- admission ------------------------------------------------------------------------------

  /**
   * When a message entering now and first visible at {@code requestedMillis} takes its place: never
   * before the frontier, so that new rows always land after it (I2) even if the clock went back.
   */
  long firstVisibleAt(long requestedMillis) {
    return paged ? Math.max(requestedMillis, frontier.major()) : requestedMillis;
  }

  /**
   * Whether a send first visible at {@code firstVisibleAt} stays resident, charging its bytes if
   * so. Unpaged, it always does, and a spent budget refuses it (RequestThrottled) as it always did.
   */
  boolean admitsSend(long firstVisibleAt, int heldBytes, long nowMillis) {
    if (!paged) {
      store.charge(heldBytes);
      return true;
    }
    return hasRoomAhead(firstVisibleAt, nowMillis) && env.budget().tryCharge(heldBytes);
  }

  /** Whether a message moved in (its memory charge with it) first visible now stays resident. */
  boolean admitsMoved(long firstVisibleAt, long nowMillis) {
    return !paged || hasRoomAhead(firstVisibleAt, nowMillis);
  }

  /**
   * §2.5: resident only if no durable-only row could come before it (none due, none being read,
   * none due earlier), the window has room, and it becomes visible within the delayed horizon.
   */
  private boolean hasRoomAhead(long firstVisibleAt, long nowMillis) {
    return counts.due() == 0 && reading == null && !counts.futureRowBy(firstVisibleAt)
        && inWindow < window.messages() && firstVisibleAt - nowMillis <= window.delayedHorizonMillis();
  }

  /**
   * A never-received message became resident: it counts against the window, and if it is visible
   * now it moves the frontier. A delayed one (an "extra") leaves the frontier alone until its delay
   * ends, see {@link #evictsOnDue}.
   */
  void admitted(Message m, long nowMillis) {
    m.inWindow = true;
    inWindow++;
    if (m.firstVisibleAtMillis() <= nowMillis) {
      frontier = DeliveryPosition.max(frontier, DeliveryPosition.of(m));
    }
  }

  /** A resident message was taken by a receive or a move, or left the queue. */
  void leftWindow(Message m) {
    if (m.inWindow) {
      m.inWindow = false;
      inWindow--;
    }
  }

  /**
   * A message handed back keeps its place at the front, so it must stay resident: it goes just
   * before the frontier if it was after it.
   */
  long takenBackFirstVisibleAt(long firstVisibleAt) {
    return paged && frontier != DeliveryPosition.MIN ? Math.min(firstVisibleAt, frontier.major() - 1) : firstVisibleAt;
  }

  /**
   * A message goes to the durable store only (SPILL): counted, and remembered as uncommitted until
   * the store says its write committed. Counted before its row is logged, as a store may report the
   * commit from within that call; waiting receives may then read it back at once.
   */
  void spill(Message m, long nowMillis) {
    m.enter(MessageState.PAGED_OUT);
    count(m, nowMillis);
    uncommitted.add(DeliveryPosition.of(m));
    env.changes().messageStored(store, m);
    poke(nowMillis);
    store.tellReceivable(nowMillis);
  }

  /** A message moved in is spilled: its memory charge, which came with it, is released. */
  void spillMoved(Message m, long nowMillis) {
    env.budget().release(m.heldBytes);
    m.ownedBy(store);
    spill(m, nowMillis);
  }

  /**
   * A resident delayed message (an extra) is due. It stays, moving the frontier to it, if no
   * durable-only row could come before it (false). Else it is evicted (true): it leaves memory
   * with no delete logged, its row staying, and is read back in its turn.
   */
  boolean evictedOnDue(Message m, long nowMillis) {
    if (!paged || !m.inWindow) {
      return false;
    }
    DeliveryPosition p = DeliveryPosition.of(m);
    if (p.compareTo(frontier) <= 0 || m.rowLost) {
      // Inside the resident region already; or with no row to read it back from, so it stays (a
      // page passes over its place, as nothing is there).
      return false;
    }
    if (counts.due() == 0 && reading == null && !counts.futureRowBy(m.firstVisibleAtMillis())) {
      frontier = p;
      return false;
    }
    store.evict(m);
    m.enter(MessageState.PAGED_OUT);
    count(m, nowMillis);
    if (!m.rowWritten) {
      uncommitted.add(DeliveryPosition.of(m));
    }
    poke(nowMillis);
    store.tellReceivable(nowMillis);
    return true;
  }

  private void count(Message m, long nowMillis) {
    counts.add(m.firstVisibleAtMillis(), m.sentAtMillis, nowMillis);
    readingAllDue = false;
    scheduleMaturity();
  }

  /** The write of a durable-only row committed: reads may now reach it. */
  void spillCommitted(Message m, long nowMillis) {
    if (m.key >= purgedBelowKey && uncommitted.remove(m.key)) {
      poke(nowMillis);
    }
  }

  /** The write of a durable-only row failed for good: the row never existed. */
  void spillFailed(Message m, long nowMillis) {
    m.enter(MessageState.GONE);
    if (m.key < purgedBelowKey || !uncommitted.remove(m.key)) {
      return; // purged meanwhile, so no longer counted
    }
    counts.removeFailed(m.firstVisibleAtMillis(), m.sentAtMillis);
    readingAllDue = false;
    scheduleMaturity();
    poke(nowMillis);
  }

  private void scheduleMaturity() {
    long at = counts.nextMaturityAt();
    if (at != Long.MAX_VALUE && (!wake.isScheduled() || wake.dueAtMillis() > at)) {
      env.index().schedule(wake, at);
    }
  }

  /** Something readable may have changed: the queue looks again in a later turn, a safe point. */
  private void poke(long atMillis) {
    if (paged && !closed && counts.due() > 0 && reading == null && (!wake.isScheduled() || wake.dueAtMillis() > atMillis)) {
      env.index().schedule(wake, atMillis);
    }
  }

  // ---- page reads ---------------------------------------------------------------------------

  /**
   * At a safe point (the end of a shard call, or this backlog's own timer): due rows are counted as
   * such, waiting receives may take them (through a store that reads at once), and a page is asked
   * for in the background if the resident head has run low.
   */
  void maintain(long nowMillis) {
    if (!paged || closed) {
      return;
    }
    if (counts.mature(nowMillis)) {
      readingAllDue = false; // rows became due that the read under way does not cover
    }
    scheduleMaturity();
    if (counts.due() > 0) {
      store.tellReceivable(nowMillis);
    }
    if (canRead(true)) {
      reading = request(nowMillis);
      env.backlog().readPage(queue, reading);
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
      poke(nowMillis);
      return false;
    }
    reading = request;
    accept(request, result, nowMillis, false);
    return !result.rows().isEmpty();
  }

  /** Whether durable-only rows are due: a receive may find them through a page. */
  boolean hasDueRows() {
    return paged && counts.due() > 0;
  }

  /** A read is possible now, and (prefetch) worth asking for: the visible head is below half. */
  private boolean canRead(boolean prefetch) {
    return paged && !closed && reading == null && counts.due() > 0 && inWindow < window.messages()
        && (!prefetch || 2L * store.readyCount() < window.messages())
        && (env.budget().usedBytes() < env.budget().limitBytes() || inWindow == 0)
        && readBound().compareTo(frontier) > 0;
  }

  /** §2.6: up to the last due position, and short of the first row not committed yet. */
  private DeliveryPosition readBound() {
    DeliveryPosition allDue = counts.lastDuePosition();
    DeliveryPosition firstUncommitted = uncommitted.min();
    return firstUncommitted == null || firstUncommitted.compareTo(allDue) > 0 ? allDue
        : firstUncommitted.predecessor();
  }

  private PageRequest request(long nowMillis) {
    long available = env.budget().limitBytes() - env.budget().usedBytes();
    // A queue with nothing resident may always read one small page, so that other queues' windows
    // never starve it (§2.14).
    int rows = Math.min(window.messages() - inWindow, window.pageRows());
    long bytes = window.bytes();
    if (available <= 0) {
      rows = Math.min(rows, 10);
    } else {
      bytes = Math.min(bytes, available);
    }
    DeliveryPosition bound = readBound();
    readingAllDue = bound.equals(counts.lastDuePosition());
    // Rows spilled while the read runs must be beyond it, or one that commits late could be passed
    // over: they become visible now or later and take later keys. (§2.6 argues "after the matured
    // bound", which fails within the millisecond the bound matured in.)
    bound = DeliveryPosition.min(bound, new DeliveryPosition(nowMillis, store.nextKey() - 1));
    return new PageRequest(store.metadata().generation(), epoch, frontier, bound, purgedBelowKey, rows, bytes);
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
    if (closed || request.epoch() != epoch) {
      poke(nowMillis);
      return;
    }
    long retentionMillis = store.attributes().retentionMillis();
    for (RestoredMessage r : result.rows()) {
      frontier = DeliveryPosition.max(frontier, DeliveryPosition.of(r));
      if (store.find(r.key()) != null) {
        duplicateRows++; // cannot happen (I1); counted so that tests and metrics can tell
        continue;
      }
      counts.pagedIn(r.sentAtMillis());
      if (r.sentAtMillis() + retentionMillis <= nowMillis) {
        Message expired = ArrivingMessages.restored(r, 0, nowMillis); // to log its delete
        expired.ownedBy(store);
        env.changes().messageDeleted(store, expired);
      } else {
        store.restoreFromPage(r, nowMillis);
      }
    }
    if (readingAllDue && !result.reachedLimit() && result.rows().size() < request.maxRows()
        && counts.resyncAfterCompleteRead()) {
      countResyncs++; // every due row was in range and fewer came than asked: the count was wrong
    }
    if (serveWaiters) {
      store.tellReceivable(nowMillis);
    }
    if (!result.rows().isEmpty()) {
      // More may follow. An empty answer would be empty again: what makes rows readable (a commit,
      // a spill, a bucket maturing) looks again by itself, so no read is repeated in a loop.
      poke(nowMillis);
    }
  }

  /** Start-up, rows up to the persisted frontier F restored: R = F, the rest counted, read as spilled rows. */
  void recovered(DeliveryPosition persistedFrontier, long pagedOut, java.util.Map<Long, Integer> future,
      long oldestSentAtMillis, long dueThroughMillis, long nowMillis) {
    if (paged) {
      frontier = DeliveryPosition.max(frontier, persistedFrontier);
      counts.recovered(pagedOut, future, oldestSentAtMillis, dueThroughMillis);
      scheduleMaturity();
      poke(nowMillis);
    }
  }

  /** The key below which a purge now removes every row: the next key the queue hands out. */
  void purged(long purgedBelowKey) {
    this.purgedBelowKey = purgedBelowKey;
    epoch++;
    counts.clear();
    uncommitted.clear();
    inWindow = 0; // every resident message was dropped
    env.index().cancel(wake);
  }

  /** The queue was deleted: nothing more is read, answers under way are dropped. */
  void close() {
    closed = true;
    env.index().cancel(wake);
  }

  /** The exact counts of durable-only rows. */
  BacklogCounts counts() {
    return counts;
  }

  int inWindow() {
    return inWindow;
  }

  DeliveryPosition frontier() {
    return frontier;
  }

  long epoch() {
    return epoch;
  }

  int uncommittedCount() {
    return uncommitted.size();
  }

  long duplicateRows() {
    return duplicateRows;
  }

  long countResyncs() {
    return countResyncs;
  }

  /** This backlog's one timer: the earliest future bucket is due, or a look is wanted soon. */
  private final class Wake extends Timed {
    @Override
    public void onDue(long nowMillis) {
      maintain(nowMillis);
    }
  }
}
