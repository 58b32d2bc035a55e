package dev.sluice.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The durable store as the model sees it, in memory: a change log whose submissions commit when
 * the test says (in any order, as the writer's lanes do, or fail for good), and a backlog store
 * reading pages from a {@link TreeMap} "table" ordered as the delivery index is. The test decides
 * when each page request is answered, and when its snapshot of the table is taken.
 *
 * <p>{@link #eager} commits every submission as it is made and answers every read at once (pages
 * through {@link #readNow}, and background reads within the call), which makes a small window
 * behave as a large one. Every call is passed on to {@code delegate}, so a recording log sees the
 * same lines as without paging.
 */
final class FakeBacklogStore implements ChangeLog, BacklogStore {
  /** One row of the table: its queue, its place in delivery order, and what a page gives back. */
  record Row(long queueId, DeliveryPosition position, RestoredMessage message) {}

  /** One change submitted and not committed yet. */
  final class Submission {
    final Set<Long> keys = new HashSet<>();
    /** A queue change: written alone, after everything submitted before it, before anything after. */
    boolean alone;
    final Runnable apply;
    final MessageStore store;
    final Message stored;

    Submission(Runnable apply, MessageStore store, Message stored, long... keys) {
      this.apply = apply;
      this.store = store;
      this.stored = stored;
      for (long k : keys) {
        this.keys.add(k);
      }
    }
  }

  /** A page read asked for and not answered yet; {@code snapshot} once taken. */
  static final class PendingRead {
    final QueueState queue;
    final PageRequest request;
    PageResult snapshot;

    PendingRead(QueueState queue, PageRequest request) {
      this.queue = queue;
      this.request = request;
    }
  }

  private final ChangeLog delegate;
  private final boolean eager;
  private LongSupplier clock;
  /** (queue id, position) → row, as the delivery index orders them. */
  final TreeMap<String, Row> table = new TreeMap<>();
  private final Map<String, String> tableKeyOf = new HashMap<>();
  final List<Submission> uncommitted = new ArrayList<>();
  final List<PendingRead> reads = new ArrayList<>();
  /** Expiries asked for and not answered yet, with their queue. */
  final List<Map.Entry<QueueState, ExpiryRequest>> expiries = new ArrayList<>();
  int pageReads;
  int expiriesRun;

  private FakeBacklogStore(ChangeLog delegate, boolean eager) {
    if (eager && delegate.holdsSendsUntilCommitted()) {
      throw new IllegalArgumentException("an eager store commits within the call: sends are never held");
    }
    this.delegate = delegate;
    this.eager = eager;
  }

  /** Commits at once and answers every read at once. */
  static FakeBacklogStore eager() {
    return new FakeBacklogStore(ChangeLog.NONE, true);
  }

  static FakeBacklogStore eager(ChangeLog delegate) {
    return new FakeBacklogStore(delegate, true);
  }

  /** Commits and answers only when the test says. */
  static FakeBacklogStore manual() {
    return new FakeBacklogStore(ChangeLog.NONE, false);
  }

  /**
   * Commits and answers only when the test says, under durability commit: a send stays PENDING
   * until its write commits here.
   */
  static FakeBacklogStore manualHoldingSends() {
    return new FakeBacklogStore(new ChangeLogTest.Recording(true), false);
  }


  void clock(LongSupplier clock) {
    this.clock = clock;
  }

  // ---- the table --------------------------------------------------------------------------

  private static String tableKey(long queueId, DeliveryPosition p) {
    // Sortable text: offset to unsigned so that negative values sort first.
    return String.format("%016x/%016x/%016x", queueId ^ Long.MIN_VALUE, p.major() ^ Long.MIN_VALUE,
        p.minor() ^ Long.MIN_VALUE);
  }

  private static String idKey(long queueId, long key) {
    return queueId + "/" + key;
  }

  private void insert(long queueId, RestoredMessage r) {
    String k = tableKey(queueId, DeliveryPosition.of(r));
    table.put(k, new Row(queueId, DeliveryPosition.of(r), r));
    tableKeyOf.put(idKey(queueId, r.key()), k);
  }

  /** A row written by an earlier run (restart tests): in the table, committed. */
  void storedBefore(long queueId, RestoredMessage r) {
    insert(queueId, r);
  }

  private void delete(long queueId, long key) {
    String k = tableKeyOf.remove(idKey(queueId, key));
    if (k != null) {
      table.remove(k);
    }
  }

  /** The row of a queue's message, or null. */
  Row row(long queueId, long key) {
    String k = tableKeyOf.get(idKey(queueId, key));
    return k == null ? null : table.get(k);
  }

  /** The queue's rows in delivery order. */
  List<Row> rows(long queueId) {
    return List.copyOf(table.subMap(tableKey(queueId, DeliveryPosition.MIN), true,
        tableKey(queueId, new DeliveryPosition(Long.MAX_VALUE, Long.MAX_VALUE)), true).values());
  }

  static RestoredMessage snapshot(Message m) {
    return new RestoredMessage(m.key, m.messageUuid(), m.encodedContent(), m.sentAtMillis, m.sequenceNumber,
        m.visibleAtMillis(), m.receiveCount(), m.firstReceiveAtMillis(), m.receiptSequence(), m.firstVisibleAtMillis(),
        m.arrival(), m.inBackoff());
  }

  // ---- commits --------------------------------------------------------------------------------

  private void submit(Submission s) {
    uncommitted.add(s);
    if (eager) {
      commit(uncommitted.size() - 1);
    }
  }

  /**
   * Commits submission {@code i}, after every earlier one touching the same messages (the writer
   * keeps a message's insert ahead of its updates). Its stored message, if any, is released.
   */
  void commit(int i) {
    Submission s = uncommitted.get(i);
    for (int j = 0; j < i; j++) {
      Submission earlier = uncommitted.get(j);
      if (earlier.alone || s.alone || !java.util.Collections.disjoint(earlier.keys, s.keys)) {
        commit(j);
        commit(uncommitted.indexOf(s));
        return;
      }
    }
    uncommitted.remove(i);
    s.apply.run();
    if (s.stored != null) {
      s.store.commitPending(s.stored, clock.getAsLong());
    }
  }

  /** Submission {@code i} fails for good: nothing of it is written; a stored message is dropped. */
  void fail(int i) {
    Submission s = uncommitted.remove(i);
    if (s.stored != null) {
      s.store.dropPending(s.stored);
    }
  }

  /** Commits the submission that stored {@code m}. */
  void commitStored(Message m) {
    for (int i = 0; i < uncommitted.size(); i++) {
      if (uncommitted.get(i).stored == m) {
        commit(i);
        return;
      }
    }
    throw new AssertionError("no uncommitted write of " + m.body());
  }

  void commitAll() {
    while (!uncommitted.isEmpty()) {
      commit(0);
    }
  }

  // ---- ChangeLog ------------------------------------------------------------------------------

  @Override
  public boolean holdsSendsUntilCommitted() {
    return delegate.holdsSendsUntilCommitted();
  }

  @Override
  public void queueSaved(QueueState q) {
    delegate.queueSaved(q);
  }

  @Override
  public void queueDeleted(QueueState q) {
    delegate.queueDeleted(q);
    long id = q.metadata().generation();
    Submission s = new Submission(() -> rows(id).forEach(r -> delete(id, r.message().key())), null, null);
    s.alone = true;
    submit(s);
  }

  @Override
  public void queuePurged(QueueState q) {
    delegate.queuePurged(q);
  }

  @Override
  public void queuePurged(QueueState q, long purgedBelowKey) {
    delegate.queuePurged(q, purgedBelowKey);
    long id = q.metadata().generation();
    Submission s = new Submission(() -> rows(id).forEach(r -> {
      if (r.message().key() < purgedBelowKey) {
        delete(id, r.message().key());
      }
    }), null, null);
    s.alone = true;
    submit(s);
  }

  @Override
  public void messageStored(MessageStore q, Message m) {
    delegate.messageStored(q, m);
    long id = q.metadata().generation();
    RestoredMessage row = snapshot(m);
    long originQueue = m.originQueueId();
    long originKey = m.originKey();
    m.originWritten();
    submit(new Submission(() -> {
      insert(id, row);
      if (originQueue != 0) {
        delete(originQueue, originKey); // a move: its old row goes in the same write
      }
    }, q, m, m.key));
  }

  @Override
  public void messageChanged(MessageStore q, Message m) {
    delegate.messageChanged(q, m);
    long id = q.metadata().generation();
    RestoredMessage now = snapshot(m);
    submit(new Submission(() -> {
      if (row(id, now.key()) != null) {
        insert(id, now);
      }
    }, null, null, m.key));
  }

  @Override
  public void messageDeleted(MessageStore q, Message m) {
    delegate.messageDeleted(q, m);
    long id = q.metadata().generation();
    long key = m.key;
    submit(new Submission(() -> delete(id, key), null, null, key));
  }

  @Override
  public void deduplicationRemembered(MessageStore q, String key, Message m, long expiresAtMillis) {
    delegate.deduplicationRemembered(q, key, m, expiresAtMillis);
  }

  @Override
  public void relayReceiptRecorded(QueueState q, String source, long rowId, String messageId) {
    delegate.relayReceiptRecorded(q, source, rowId, messageId);
  }

  @Override
  public void relayReceiptsForgotten(QueueState q, String source, List<Long> rowIds) {
    delegate.relayReceiptsForgotten(q, source, rowIds);
  }

  // ---- BacklogStore ---------------------------------------------------------------------------

  /** What the table holds for the request now, as the page query reads it. */
  PageResult page(PageRequest r) {
    pageReads++;
    List<RestoredMessage> rows = new ArrayList<>();
    long bytes = 0;
    for (Row row : rows(r.queueId())) {
      if (row.position().compareTo(r.after()) <= 0 || row.position().compareTo(r.upTo()) > 0
          || row.message().key() < r.purgedBelowKey()) {
        continue;
      }
      if (rows.size() == r.maxRows() || (bytes >= r.maxBytes() && !rows.isEmpty())) {
        return new PageResult(rows, true);
      }
      rows.add(row.message());
      bytes += row.message().body().length();
    }
    return new PageResult(rows, false);
  }

  /** One backlog operation at a time per queue (I5): a page read or an expiry. */
  private void checkNothingUnderWay(QueueState queue) {
    for (PendingRead other : reads) {
      if (other.queue == queue) {
        throw new AssertionError("a read under way for " + queue.name() + " (I5)");
      }
    }
    for (Map.Entry<QueueState, ExpiryRequest> other : expiries) {
      if (other.getKey() == queue) {
        throw new AssertionError("an expiry under way for " + queue.name() + " (I5)");
      }
    }
  }

  @Override
  public void readPage(QueueState queue, PageRequest request) {
    checkNothingUnderWay(queue);
    if (eager) {
      queue.acceptPage(request, page(request), clock.getAsLong());
    } else {
      reads.add(new PendingRead(queue, request));
    }
  }

  @Override
  public PageResult readNow(PageRequest request) {
    return eager ? page(request) : null;
  }

  /**
   * What the expiry statement does to the table now (see ExpirySql): deletes the queue's rows after
   * the frontier whose retention ended (a dead letter by its sent time, any other once it is visible
   * too), at most the limit of each kind, and measures the oldest sent time left.
   */
  ExpiryResult expireNow(ExpiryRequest r) {
    expiriesRun++;
    List<Row> after = new ArrayList<>();
    for (Row row : rows(r.queueId())) {
      if (row.position().compareTo(r.after()) > 0 && row.message().key() >= r.purgedBelowKey()) {
        after.add(row);
      }
    }
    List<Row> victims = new ArrayList<>();
    after.stream().filter(row -> row.message().arrival() != Arrival.KEPT_SENT_TIME
            && row.message().firstVisibleAtMillis() <= r.cutoffSentAtMillis())
        .sorted(java.util.Comparator.comparingLong((Row row) -> row.message().firstVisibleAtMillis())
            .thenComparingLong(row -> row.message().key()))
        .limit(r.maxRows()).forEach(victims::add);
    after.stream().filter(row -> row.message().arrival() == Arrival.KEPT_SENT_TIME
            && row.message().sentAtMillis() <= r.cutoffSentAtMillis())
        .sorted(java.util.Comparator.comparingLong((Row row) -> row.message().sentAtMillis()))
        .limit(r.maxRows()).forEach(victims::add);
    List<ExpiryResult.Row> deleted = new ArrayList<>();
    for (Row v : victims) {
      delete(r.queueId(), v.message().key());
      deleted.add(new ExpiryResult.Row(v.message().firstVisibleAtMillis(), v.message().sentAtMillis(),
          v.message().arrival()));
    }
    after.removeAll(victims);
    long oldest = after.isEmpty() ? Long.MAX_VALUE : after.get(0).message().sentAtMillis();
    for (Row row : after) {
      if (row.message().arrival() == Arrival.KEPT_SENT_TIME) {
        oldest = Math.min(oldest, row.message().sentAtMillis());
      }
    }
    return new ExpiryResult(deleted, deleted.size() >= r.maxRows(), oldest);
  }

  @Override
  public void expire(QueueState queue, ExpiryRequest request) {
    checkNothingUnderWay(queue);
    if (eager) {
      queue.acceptExpiry(request, expireNow(request), clock.getAsLong());
    } else {
      expiries.add(Map.entry(queue, request));
    }
  }

  /** Runs and answers expiry {@code i} now. */
  void answerExpiry(int i) {
    Map.Entry<QueueState, ExpiryRequest> e = expiries.remove(i);
    e.getKey().acceptExpiry(e.getValue(), expireNow(e.getValue()), clock.getAsLong());
  }

  /** Answers every backlog operation under way (reads and expiries), as they come. */
  void answerAll() {
    while (!reads.isEmpty() || !expiries.isEmpty()) {
      if (!reads.isEmpty()) {
        answer(0);
      } else {
        answerExpiry(0);
      }
    }
  }

  /** Takes the snapshot of read {@code i} now (if not taken yet); it is answered later. */
  void snapshot(int i) {
    PendingRead read = reads.get(i);
    if (read.snapshot == null) {
      read.snapshot = page(read.request);
    }
  }

  /**
   * Answers read {@code i} with no rows, as a reader whose snapshot missed rows it was told had
   * committed would (a lagging connection): the model must not lose those rows for it.
   */
  void answerEmpty(int i) {
    PendingRead read = reads.remove(i);
    read.queue.acceptPage(read.request, new PageResult(List.of(), false), clock.getAsLong());
  }

  /** Answers read {@code i}, with its snapshot if one was taken, else with the table as it is now. */
  void answer(int i) {
    snapshot(i);
    PendingRead read = reads.remove(i);
    read.queue.acceptPage(read.request, read.snapshot, clock.getAsLong());
  }
}
