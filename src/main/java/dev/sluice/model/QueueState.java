package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.PeekMessages;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Owned by the shard event loop that owns the queue, and called only there: its move tasks, when
 * it may next be purged, whether it was deleted, and the parts below, which it alone holds.
 *
 * <p>The pure model of one queue's SQS actions: sending, receiving (parking receives that find
 * nothing), deleting and changing visibility by receipt handle, purge, attributes and move tasks.
 * Its messages are its {@link MessageStore}'s, its receives its {@link Receiving}'s, messages moving
 * to and from other queues its {@link QueueMoves}', and what its type decides (standard or FIFO) is
 * its {@link QueueTypeRules}'. No Vert.x and no clock: every operation takes the current time, and
 * its timed items live in the shard's {@link DueTimeIndex}.
 */
public final class QueueState {
  private final ShardResources env;
  private final QueueMetadata metadata;
  private final MessageStore store;
  private final QueueTypeRules rules;
  private final Receiving receiving;
  private final MoveTasks moveTasks;
  private final QueueMoves moves;
  private final RelayReceipts relayReceipts;
  private final RedeliveryWaits redeliveryWaits;
  private final ReceiptChanges receipts;
  private long purgeAllowedAtMillis = Long.MIN_VALUE;
  private boolean closed;

  /** A standard or a FIFO queue, as its attributes say. */
  QueueState(ShardResources env, QueueMetadata metadata) {
    this.env = env;
    this.metadata = metadata;
    boolean fifo = metadata.attributes().fifo();
    this.redeliveryWaits = new RedeliveryWaits(metadata, env.deadLetters());
    this.store = new MessageStore(env, metadata, fifo ? new GroupOrder() : new SendOrder(),
        this::serveWaiters, this::pendingDropped, this, redeliveryWaits);
    this.rules = fifo ? new FifoRules(env, store, metadata) : new StandardRules(store);
    this.receiving = new Receiving(env, store, rules, this);
    this.moveTasks = new MoveTasks(env.index());
    this.moves = new QueueMoves(env, this, store, rules);
    this.relayReceipts = new RelayReceipts(this, env.changes());
    this.receipts = new ReceiptChanges(env, store, rules, receiving);
  }

  private void serveWaiters(long nowMillis) {
    receiving.serveWaiters(nowMillis);
    // A move task waiting for a page takes what became receivable without one (a visibility
    // timeout ran out) rather than wait for a page that a full head may never ask for.
    if (store.backlog().operations().hasPagedWaiter() && store.hasReceivable()) {
      store.backlog().operations().wakePagedWaiter(nowMillis);
    }
  }

  private void pendingDropped(Message m) {
    rules.pendingDropped(m);
  }

  public QueueMetadata metadata() {
    return metadata;
  }

  public String name() {
    return metadata.name();
  }

  public QueueAttributes attributes() {
    return metadata.attributes();
  }

  public SendMessage.Response send(NewMessage m, boolean batchEntry, long nowMillis) {
    MessageValidation.checkMessage(m, batchEntry, attributes().maximumMessageSize());
    return rules.send(m, batchEntry, nowMillis);
  }

  /** The outbox rows this queue stored messages for, which it sends at most once. */
  public RelayReceipts relayReceipts() {
    return relayReceipts;
  }

  /** Checks a batch as a whole before any entry is sent (AWS: SendMessageBatch): its type's rules, then 1 MiB. */
  public void checkBatch(List<NewMessage> messages) {
    rules.checkBatch(messages);
    long total = 0;
    for (NewMessage m : messages) {
      total += MessageValidation.payloadBytes(m.body(), m.attributes());
    }
    if (total > Limits.MAX_BATCH_PAYLOAD_BYTES) {
      throw new SqsException(
          ErrorCode.BATCH_REQUEST_TOO_LONG,
          "Batch requests cannot be longer than 1048576 bytes. You have sent " + total + " bytes.");
    }
  }

  /** Receives up to the spec's maximum now; empty when nothing is receivable ({@link Receiving#receive}). */
  public List<ReceiveMessage.Message> receive(ReceiveSpec spec, long nowMillis) {
    return receiving.receive(spec, nowMillis);
  }

  /** True when the in-flight cap is reached: a short poll then answers OverLimit (AWS quotas). */
  public boolean inflightLimitReached() {
    return receiving.inflightLimitReached();
  }

  /** See {@link Receiving#shortPollMayWaitForPage}. */
  public boolean shortPollMayWaitForPage() {
    return receiving.shortPollMayWaitForPage();
  }

  /** Parks a receive that found nothing until {@code deadlineMillis}; throttled past the bounds. */
  public void park(Waiter w, long deadlineMillis) {
    receiving.park(w, deadlineMillis);
  }

  /** Drops a parked receive whose caller went away; it will never complete. */
  public void cancel(Waiter w) {
    receiving.cancel(w);
  }

  /** The server is stopping: every parked receive answers now, with no messages. */
  public void answerParkedEmpty() {
    receiving.answerParkedEmpty();
  }

  public int parkedCount() {
    return receiving.parkedCount();
  }

  /** DeleteMessage (AWS: deleting again succeeds); see {@link ReceiptChanges#delete}. */
  public void delete(String handle, long nowMillis) {
    receipts.delete(handle, nowMillis);
  }

  /** ChangeMessageVisibility; see {@link ReceiptChanges#changeVisibility}. */
  public void changeVisibility(String handle, int seconds, long nowMillis) {
    receipts.changeVisibility(handle, seconds, nowMillis);
  }

  public void purge(long nowMillis) {
    if (nowMillis < purgeAllowedAtMillis) {
      throw new SqsException(
          ErrorCode.PURGE_QUEUE_IN_PROGRESS,
          "Only one PurgeQueue operation on " + name() + " is allowed every 60 seconds.");
    }
    purgeAllowedAtMillis = nowMillis + Limits.PURGE_INTERVAL_MILLIS;
    dropAllMessages();
    store.backlog().operations().wakePagedWaiter(nowMillis); // no page comes for the rows purged
  }

  /** Whether the queue was deleted: a message handed back to it then goes with it, a sampler skips it. */
  public boolean closed() {
    return closed;
  }

  /** The queue is being deleted: parked receives answer empty and every message is released. */
  public void close() {
    closed = true;
    store.backlog().close();
    dropAllMessages();
    receiving.answerParkedEmpty();
    moveTasks.abandonAll();
  }

  private void dropAllMessages() {
    if (!closed) {
      env.changes().queuePurged(this, store.nextKey()); // a deleted queue's rows go with the queue
    }
    store.dropAll();
    rules.forgetAll();
  }

  /**
   * StartMessageMoveTask on this dead-letter queue; the caller has checked that it is one and that
   * the destination exists.
   */
  public MessageMoveTask startMoveTask(
      String destinationArn, Integer maxPerSecond, MessageMover mover, long nowMillis) {
    return moveTasks.start(this, destinationArn, maxPerSecond, mover, nowMillis);
  }

  /** The most recent move tasks, newest first. */
  public List<MessageMoveTask> moveTasks() {
    return moveTasks.newestFirst();
  }

  public void setAttributes(Map<String, String> changes, long nowMillis) {
    QueueAttributes old = attributes();
    metadata.setAttributes(old.with(changes), nowMillis);
    if (attributes().retentionMillis() != old.retentionMillis()) {
      store.retentionChanged(nowMillis);
    }
    if (attributes().delaySeconds() != old.delaySeconds()) {
      rules.delayChanged(old.delaySeconds() * 1000L, nowMillis);
    }
    env.changes().queueSaved(this); // after the delay rule changed: the queue's row keeps it
  }

  /**
   * Sets or (null) removes the queue's redelivery backoff (a Sluice extension, not an attribute);
   * the next expired visibility follows it, messages in backoff keep their wait.
   */
  public void setRedeliveryBackoff(RedeliveryBackoff policy) {
    metadata.setRedeliveryBackoff(policy);
    env.changes().queueSaved(this);
  }

  /** Start-up: the redelivery backoff as the queue's row kept it; nothing is written back. */
  public void restoreRedeliveryBackoff(RedeliveryBackoff policy) {
    metadata.setRedeliveryBackoff(policy);
  }

  /** Tests: the redelivery backoff draws its waits from {@code seeded}. */
  void drawBackoffFrom(RandomGenerator seeded) {
    redeliveryWaits.drawFrom(seeded);
  }

  /** GetQueueAttributes: the named attributes (or All) with their current values. */
  public Map<String, String> attributeValues(List<String> names, long nowMillis) {
    return QueueAttributeView.render(this, names, nowMillis);
  }

  /** The console's peek (design/console.md §2.5): reads resident messages, changes nothing. */
  public PeekMessages.Response peek(PeekMessages.Request request, long nowMillis) {
    return MessagePeek.answer(store, request, nowMillis);
  }

  /** How many messages arrived, were received and were deleted since this queue object was made. */
  public QueueCounters counters() {
    return store.counters;
  }

  /** Messages moving between this queue and others: dead letters, redriven, handed back, taken by a move task. */
  public QueueMoves moves() {
    return moves;
  }

  /**
   * Paged mode: the answer to a page read this queue asked its {@link BacklogStore} for, given
   * inside a call on the queue's shard. A stale answer (asked before a purge) is dropped.
   */
  public void acceptPage(PageRequest request, PageResult result, long nowMillis) {
    store.backlog().operations().accept(request, result, nowMillis, true);
  }

  /**
   * Paged mode: the answer to a retention expiry this queue asked its {@link BacklogStore} for,
   * given inside a call on the queue's shard. A stale answer (asked before a purge) is dropped.
   */
  public void acceptExpiry(ExpiryRequest request, ExpiryResult result, long nowMillis) {
    store.backlog().operations().acceptExpiry(request, result, nowMillis);
  }

  /**
   * Paged mode, at a safe point (the end of a shard call): counts durable-only rows that became due
   * as such, and asks for a page if the resident head runs low. A no-op otherwise; the queue's own
   * timer does the same, so calling it is never needed for correctness, only for promptness.
   */
  public void maintain(long nowMillis) {
    store.backlog().operations().maintain(nowMillis);
  }

  /** The resident message with this key, or null (tests: a page brings a row back as a new one). */
  Message resident(long key) {
    return store.find(key);
  }

  /** Every message this queue holds in memory (tests: the budget is charged for exactly these). */
  void forEachResident(Consumer<Message> action) {
    store.forEachHeld(action);
  }

  /** This queue's paging state (tests; metrics). */
  Backlog backlog() {
    return store.backlog();
  }

  /** See {@link MessageStore#commitPending}. */
  public void commitPending(Message m, long nowMillis) {
    store.commitPending(m, nowMillis);
  }

  /**
   * Puts back a message from the durable store at start-up, in the state its row describes.
   * Messages must come in their queue's order (FIFO: by sequence number).
   */
  public void restore(RestoredMessage r, long nowMillis) {
    store.restore(r, nowMillis);
    rules.restoredSequence(r.sequenceNumber());
  }

  /**
   * Paged mode, at start-up once the rows up to the persisted frontier are restored: the rest of the
   * backlog stays in the durable store. {@code pagedOut} rows are there (its tally less the rows
   * restored), those first visible after {@code dueThroughMillis} counted in {@code future} (a due
   * time in each bucket, and its count); {@code oldestSentAtMillis} is the oldest sent time among
   * them as far as known (MAX_VALUE: unknown). A no-op on a queue that does not page.
   */
  public void restoreBacklog(long frontierMajor, long frontierMinor, long pagedOut, Map<Long, Integer> future,
      long oldestSentAtMillis, long dueThroughMillis, long nowMillis) {
    store.backlog().recovered(new DeliveryPosition(frontierMajor, frontierMinor), pagedOut, future,
        oldestSentAtMillis, dueThroughMillis, nowMillis);
  }

  /** Puts back a FIFO deduplication entry from the durable store (start-up, in expiry order). */
  public void restoreDeduplication(String key, String messageId, long sequenceNumber, long expiresAtMillis) {
    rules.restoreDeduplication(key, messageId, sequenceNumber, expiresAtMillis);
  }

  /**
   * Paged mode, at start-up: FIFO sequence numbers continue past {@code sequenceNumber}, the largest
   * of the queue's rows (most of which are not restored).
   */
  public void restoreLastSequenceNumber(long sequenceNumber) {
    rules.restoredSequence(sequenceNumber);
  }

  /** The last sequence number this FIFO queue gave out; 0 on a standard queue. */
  long lastSequenceNumber() {
    return rules.lastSequenceNumber();
  }

  /**
   * Start-up: the key below which the queue's last purge removed every row, as its row kept it. Rows
   * below it may still be in the table until the reaper deletes them; no page or expiry reads them.
   */
  public void restorePurgedBelowKey(long purgedBelowKey) {
    store.backlog().restorePurgedBelowKey(purgedBelowKey);
  }

  /**
   * Start-up, before the queue's rows: its FIFO delay rule as its row kept it (see
   * {@link FifoDelayRule}); ignored on a standard queue.
   */
  public void restoreDelayRule(long releasedThroughMillis, long changedAtMillis) {
    FifoDelayRule rule = store.backlog().delayRule();
    if (rule != null) {
      rule.restore(releasedThroughMillis, changedAtMillis);
    }
  }

  /**
   * A FIFO queue's delay rule as its row keeps it: the latest sent time that was visible when its
   * DelaySeconds changed; {@link Long#MIN_VALUE} if it never did, and on standard queues.
   */
  public long delayReleasedThroughMillis() {
    FifoDelayRule rule = store.backlog().delayRule();
    return rule == null ? FifoDelayRule.NEVER : rule.releasedThroughMillis();
  }

  /** When a FIFO queue's DelaySeconds last changed; {@link Long#MIN_VALUE} if never, and on standard queues. */
  public long delayChangedAtMillis() {
    FifoDelayRule rule = store.backlog().delayRule();
    return rule == null ? FifoDelayRule.NEVER : rule.changedAtMillis();
  }

  /** After a restart: FIFO sequence numbers continue past the current time's. */
  public void resumeSequence(long nowMillis) {
    rules.resumeSequence(nowMillis);
  }

  /**
   * Paged mode: rows page reads brought back that were resident already. Never anything but 0 (I1);
   * counted so that tests and the metrics can tell.
   */
  public long backlogDuplicateRows() {
    return store.backlog().operations().duplicateRows();
  }

  /** When the oldest message still held was sent, or -1 when the queue holds none. */
  public long oldestSentAtMillis() {
    return store.oldestSentAtMillis();
  }

  public int approximateNumberOfMessages(long nowMillis) {
    return (int) Math.min(Integer.MAX_VALUE, store.visibleCount(nowMillis));
  }

  public int approximateNumberOfMessagesNotVisible() {
    return store.inflightCount();
  }

  /** Delayed messages, those waiting out their redelivery backoff included. */
  public int approximateNumberOfMessagesDelayed(long nowMillis) {
    return (int) Math.min(Integer.MAX_VALUE, store.delayedCount(nowMillis));
  }

  /** Messages waiting out their redelivery backoff (a metric of its own). */
  public int messagesInBackoff() {
    return store.backoffCount();
  }
}
