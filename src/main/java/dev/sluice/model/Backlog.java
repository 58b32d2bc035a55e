package dev.sluice.model;

/**
 * Owned by its queue's {@link MessageStore}, on the shard event loop that owns the queue: which of
 * the queue's never-received messages are kept in memory and which only by the durable store
 * (design page "Durable queues larger than memory", §2.1–2.7, 2.15).
 *
 * <p>A queue keeps in memory the head of its delivery order, at most {@link HeadWindow#messages}
 * never-received messages: every resident never-received message sits at or before the frontier R,
 * every durable-only ("paged out") row after it, and every received message is resident. A send
 * beyond the window, or one that would overtake a durable-only row, is spilled: its row is written
 * and the message is only counted here. Rows are read back in delivery order, one page read at a
 * time, bounded by the rows that are due and by the rows whose write has not committed yet, so a
 * read never misses a row nor reads one twice. Counts of durable-only rows are kept exactly: due
 * ones (visible) and, by due time, future ones (delayed).
 *
 * <p>The resident region (R, the window, extras) is a {@link ResidentRegion}; the page reads and
 * expiries, and when they run, are its {@link BacklogOperations}; this class decides what is
 * admitted, spilled or evicted, and counts it.
 *
 * <p>A FIFO queue's delivery order is its sequence numbers (§2.12): its resident part is a prefix of
 * it, so a send stays resident only while no row is durable-only, every group's resident messages
 * come before its durable-only ones, and pages append to the groups in order. Delays do not change
 * that order (a delayed message holds its group's place), so there are no extras; which durable-only
 * rows are delayed is counted by sent time under the queue's delay rule ({@link FifoBacklogDelays}).
 *
 * <p>With {@link HeadWindow#UNBOUNDED} (memory mode, paging off) every message is resident and the
 * memory budget refuses sends once spent, exactly as before paging existed. Pure: no clock, no I/O;
 * the durable store is asked through {@link BacklogStore}.
 */
final class Backlog {
  private final ShardResources env;
  private final HeadWindow window;
  private final MessageStore store;
  private final QueueState queue;
  /** The page reads and expiries, and when the queue looks at its durable-only rows again. */
  private final BacklogOperations operations;
  /**
   * Whether messages may leave memory at all: a bounded window. Unpaged, none of the structures
   * below is allocated (memory mode is the product's hot path).
   */
  private final boolean paged;
  /** Ordered by sequence number rather than by when messages first become visible. */
  private final boolean fifo;
  /** FIFO queues: their delay for the messages not in memory; null on standard queues. */
  private final FifoBacklogDelays fifoDelays;
  /** R, and the resident never-received messages counted against the window. */
  private final ResidentRegion region;
  private final BacklogCounts counts;
  private final UncommittedSpills uncommitted;
  /** Bumped by purge: an answer to a read asked before it is stale (I5). */
  private long epoch;
  private long purgedBelowKey;
  private boolean closed;

  Backlog(ShardResources env, MessageStore store, QueueState queue, boolean fifo) {
    this.env = env;
    this.window = env.window();
    this.store = store;
    this.queue = queue;
    this.paged = env.window().paged();
    this.fifo = fifo;
    this.fifoDelays = fifo ? new FifoBacklogDelays(store, window) : null;
    this.region = paged ? new ResidentRegion(fifo) : null;
    this.counts = paged ? new BacklogCounts(window.bucketMillis(), fifo) : BacklogCounts.NONE;
    this.uncommitted = paged ? new UncommittedSpills() : null;
    this.operations = new BacklogOperations(env, store, queue, this, region, counts, uncommitted);
  }

  /**
   * When a message entering now and first visible at {@code requestedMillis} takes its place: never
   * before the frontier, so that new rows always land after it (I2) even if the clock went back.
   */
  long firstVisibleAt(long requestedMillis) {
    return paged && !fifo ? Math.max(requestedMillis, region.frontier().major()) : requestedMillis;
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
   * none due earlier), the window has room, and it becomes visible within the delayed horizon. On a
   * FIFO queue every durable-only row comes before it (§2.12): resident only while there is none.
   * Never while an expiry runs: a dead letter (kept sent time) admitted then could be among the rows
   * it deletes and uncounts; spilling it is always safe.
   */
  private boolean hasRoomAhead(long firstVisibleAt, long nowMillis) {
    if (operations.expiring()) {
      return false;
    }
    if (fifo) {
      return counts.pagedOut() == 0 && !operations.reading() && region.inWindow() < window.messages();
    }
    return counts.due() == 0 && !operations.reading() && !counts.futureRowBy(firstVisibleAt)
        && region.inWindow() < window.messages() && firstVisibleAt - nowMillis <= window.delayedHorizonMillis();
  }

  /**
   * A never-received message became resident: it counts against the window, and if it is visible
   * now it moves the frontier. A delayed one (an "extra") leaves the frontier alone until its delay
   * ends, see {@link #evictedOnDue}.
   */
  void admitted(Message m, long nowMillis) {
    if (paged) {
      region.admitted(m, nowMillis);
    }
  }

  /**
   * A message moved in became resident, as {@link #admitted}; one handed back ({@code atFront})
   * counts against the window only if there is room. Else it is resident outside it: it must stay
   * resident (it is before R), and its memory came with it.
   */
  void admittedMoved(Message m, boolean atFront, long nowMillis) {
    if (paged && (!atFront || region.inWindow() < window.messages())) {
      region.admitted(m, nowMillis);
    }
  }

  /** A resident message was taken by a receive or a move, or left the queue. */
  void leftWindow(Message m) {
    if (paged) {
      region.left(m);
    }
  }

  /**
   * A message handed back keeps its place at the front, so it must stay resident: it goes just
   * before the frontier if it was after it.
   */
  long takenBackFirstVisibleAt(long firstVisibleAt) {
    if (fifo) {
      return firstVisibleAt; // its sequence number, which it keeps, is its place
    }
    DeliveryPosition frontier = frontier();
    return frontier != DeliveryPosition.MIN ? Math.min(firstVisibleAt, frontier.major() - 1) : firstVisibleAt;
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
    operations.poke(nowMillis);
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
    if (!paged || fifo || !m.inWindow) {
      return false; // FIFO: a delayed message holds its place, there are no extras
    }
    region.extraDue(m);
    DeliveryPosition p = DeliveryPosition.of(m);
    if (p.compareTo(region.frontier()) <= 0 || m.rowLost) {
      // Inside the resident region already; or with no row to read it back from, so it stays (a
      // page passes over its place, as nothing is there).
      return false;
    }
    if (counts.due() == 0 && !operations.reading() && !counts.futureRowBy(m.firstVisibleAtMillis())) {
      region.reached(p);
      return false;
    }
    store.evict(m);
    m.enter(MessageState.PAGED_OUT);
    count(m, nowMillis);
    if (!m.rowWritten) {
      uncommitted.add(DeliveryPosition.of(m));
    }
    operations.poke(nowMillis);
    store.tellReceivable(nowMillis);
    return true;
  }

  /**
   * Durability commit: a pending extra's write committed. If its delay ended meanwhile it is due
   * now, and is promoted or evicted as on its timer (shown directly, it could sit after R with
   * durable-only rows before it, I1).
   */
  boolean evictedOnCommit(Message m, long nowMillis) {
    return paged && m.firstVisibleAtMillis() <= nowMillis && region.isExtra(m) && evictedOnDue(m, nowMillis);
  }

  private void count(Message m, long nowMillis) {
    counts.add(m.firstVisibleAtMillis(), m.sentAtMillis, nowMillis);
    if (fifo) {
      fifoDelays.counted(m.arrival(), m.sentAtMillis, nowMillis);
    }
    operations.countsChanged();
    operations.scheduleExpiry(nowMillis); // it may be the oldest now
  }

  /** The write of a durable-only row committed: reads may now reach it. */
  void spillCommitted(Message m, long nowMillis) {
    if (m.key >= purgedBelowKey && uncommitted.remove(m.key)) {
      operations.poke(nowMillis);
    }
  }

  /** The write of a durable-only row failed for good: the row never existed. */
  void spillFailed(Message m, long nowMillis) {
    m.enter(MessageState.GONE);
    if (m.key < purgedBelowKey || !uncommitted.remove(m.key)) {
      return; // purged meanwhile, so no longer counted
    }
    uncount(m.firstVisibleAtMillis(), m.sentAtMillis, m.arrival());
    operations.poke(nowMillis);
    if (counts.due() == 0) {
      operations.wakePagedWaiter(nowMillis); // no page may come: the row it waited for never existed
    }
  }

  /** A durable-only row left without being read: its write failed, or it expired. */
  private void uncount(long firstVisibleAt, long sentAtMillis, Arrival arrival) {
    counts.removeFailed(firstVisibleAt, sentAtMillis);
    if (fifo) {
      fifoDelays.uncounted(arrival, sentAtMillis);
    }
    operations.countsChanged();
  }

  /** A durable-only row an expiry deleted (see {@link BacklogExpiry#accept}). */
  void expired(ExpiryResult.Row row) {
    uncount(row.firstVisibleAtMillis(), row.sentAtMillis(), row.arrival());
  }

  /** Whether durable-only rows are due: a receive may find them through a page. */
  boolean hasDueRows() {
    return paged && counts.due() > 0;
  }

  /** The page reads and expiries, and when the queue looks at its durable-only rows again. */
  BacklogOperations operations() {
    return operations;
  }

  /**
   * Start-up, rows up to the persisted frontier F restored: R = F, the rest counted, read as spilled
   * rows. {@code future}: on a standard queue rows by due-time bucket, on a FIFO queue the rows sent
   * with the queue's delay within the longest delay, by sent-time bucket.
   */
  void recovered(DeliveryPosition persistedFrontier, long pagedOut, java.util.Map<Long, Integer> future,
      long oldestSentAtMillis, long dueThroughMillis, long nowMillis) {
    if (paged) {
      region.reached(persistedFrontier);
      counts.recovered(pagedOut, fifo ? java.util.Map.of() : future, oldestSentAtMillis, dueThroughMillis);
      if (fifo) {
        fifoDelays.recovered(future);
      }
      operations.scheduleExpiry(nowMillis);
      operations.scheduleMaturity();
      operations.poke(nowMillis);
    }
  }

  /** Start-up: the purge key the queue's row kept (the rows below it are the reaper's). */
  void restorePurgedBelowKey(long purgedBelowKey) {
    this.purgedBelowKey = purgedBelowKey;
  }

  /** The key below which a purge now removes every row: the next key the queue hands out. */
  void purged(long purgedBelowKey) {
    this.purgedBelowKey = purgedBelowKey;
    epoch++;
    if (paged) {
      counts.clear();
      if (fifo) {
        fifoDelays.purged();
      }
      uncommitted.clear();
      region.clear(); // every resident message was dropped
    }
    operations.purged();
  }

  /** The queue was deleted: nothing more is read, answers under way are dropped. */
  void close() {
    closed = true;
    operations.close();
  }

  /** The exact counts of durable-only rows. */
  BacklogCounts counts() {
    return counts;
  }

  /** A row a page read brought back (restored, or to be deleted as expired) is no longer durable-only. */
  void pagedIn(RestoredMessage r) {
    counts.pagedIn(r.sentAtMillis());
    if (fifo) {
      fifoDelays.uncounted(r.arrival(), r.sentAtMillis());
    }
  }

  /** Durable-only rows visible at {@code nowMillis}. */
  long visibleRows(long nowMillis) {
    return counts.due() - fifoDelayedRows(nowMillis);
  }

  /** Durable-only rows delayed at {@code nowMillis}. */
  long delayedRows(long nowMillis) {
    return counts.delayed() + fifoDelayedRows(nowMillis);
  }

  /** See {@link FifoBacklogDelays#delayedRows}. */
  private long fifoDelayedRows(long nowMillis) {
    return !paged || !fifo || counts.pagedOut() == 0 ? 0 : fifoDelays.delayedRows(counts.due(), nowMillis);
  }

  /**
   * When a row read back, or restored at start-up, becomes visible: a never-received FIFO message as
   * the queue's delay rule says (see {@link FifoBacklogDelays#visibleAt}), else as its row says.
   */
  long restoredVisibleAt(RestoredMessage r) {
    return fifo ? fifoDelays.visibleAt(r) : r.visibleAtMillis();
  }

  /** A FIFO queue's delay for the messages not in memory; null on standard queues. */
  FifoBacklogDelays fifoDelays() {
    return fifoDelays;
  }

  /** A FIFO queue's delay rule, as its row keeps it; null on standard queues. */
  FifoDelayRule delayRule() {
    return fifo ? fifoDelays.rule() : null;
  }

  boolean fifo() {
    return fifo;
  }

  int inWindow() {
    return paged ? region.inWindow() : 0;
  }

  DeliveryPosition frontier() {
    return paged ? region.frontier() : DeliveryPosition.MIN;
  }

  long epoch() {
    return epoch;
  }

  long purgedBelowKey() {
    return purgedBelowKey;
  }

  boolean closed() {
    return closed;
  }

  int uncommittedCount() {
    return paged ? uncommitted.size() : 0;
  }
}
