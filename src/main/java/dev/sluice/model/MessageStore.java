package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Owned by its queue, on the shard event loop that owns the queue: the queue's messages by key and
 * in retention order, the next message key, and (through its {@link Visibility}) their states.
 *
 * <p>Where one queue's messages are: what enters the queue (sent, restored at start-up, moved in
 * from another queue, handed back), charged to the memory budget and logged for the durable store,
 * and what leaves it (deleted, expired by retention, moved out, purged). How a message moves
 * between states while it is here is its {@link Visibility}'s; the SQS actions on top are
 * {@link QueueState}'s, and the moves between queues its {@link QueueMoves}'. Pure: no Vert.x, no
 * clock.
 */
public final class MessageStore {
  private final ShardResources env;
  private final QueueMetadata metadata;
  private final Visibility visibility;
  /** A pending message was dropped: the queue's rules forget it. */
  private final Consumer<Message> pendingDropped;
  private final QueueState queue;
  private final MessageIndex byKey = new MessageIndex();
  private final RetentionOrder retention;
  /** Which never-received messages are resident, and the count of those that are not. */
  private final Backlog backlog;
  /** Its messages' contents in the shard's slab. */
  private final ContentRecords contents;
  /** Its arrived, received and deleted totals; bumped where each happens (QueueState, QueueMoves, here). */
  final QueueCounters counters = new QueueCounters();
  private long nextKey;

  /**
   * @param receivable told whenever messages became receivable (or room was made under the
   *     in-flight cap), so that the queue can serve its waiting receives
   */
  MessageStore(ShardResources env, QueueMetadata metadata, DeliveryOrder order, LongConsumer receivable,
      Consumer<Message> pendingDropped, QueueState queue, RedeliveryWaits waits) {
    this.env = env;
    this.metadata = metadata;
    // A backoff's start is logged: its row says when it ends, so a restart keeps the wait drawn.
    this.visibility = new Visibility(env.index(), order, receivable, waits, m -> env.changes().messageChanged(this, m));
    this.pendingDropped = pendingDropped;
    this.queue = queue;
    this.retention = new RetentionOrder(env.index(), this);
    this.nextKey = env.firstMessageKey();
    this.backlog = new Backlog(env, this, queue, metadata.attributes().fifo());
    this.contents = new ContentRecords(env);
  }

  /** The slab its resident messages' contents are in. */
  ContentSlab slab() {
    return contents.slab();
  }

  Backlog backlog() {
    return backlog;
  }

  /** Its messages by sent time, which the console's peek walks ({@link MessagePeek}). */
  RetentionOrder retention() {
    return retention;
  }

  public QueueMetadata metadata() {
    return metadata;
  }

  QueueAttributes attributes() {
    return metadata.attributes();
  }

  /**
   * Charges the memory budget for a checked message, builds it and enqueues it; in paged mode, a
   * message beyond the head window goes to the durable store only (spilled).
   */
  Message store(NewMessage m, int delaySeconds, String dedupId, long sequenceNumber, long nowMillis) {
    PackedContent content = ArrivingMessages.content(m, dedupId); // packed once: the record, or a spilled row's
    int held = ArrivingMessages.heldBytes(content.packedSize());
    long firstVisibleAt = backlog.firstVisibleAt(nowMillis + delaySeconds * 1000L);
    boolean resident = backlog.admitsSend(firstVisibleAt, held, nowMillis);
    Message msg = ArrivingMessages.sent(m, nextKey++, held, sequenceNumber, nowMillis);
    msg.arrived(Arrival.SENT, firstVisibleAt);
    counters.countArrival(); // resident or spilled alike: the queue has taken it
    msg.ownedBy(this);
    if (!resident) {
      msg.travelling = content.pack(); // not written into the slab: kept for the change log only
      backlog.spill(msg, nowMillis);
      return msg;
    }
    contents.write(msg, content);
    backlog.admitted(msg, nowMillis);
    byKey.put(msg.key, msg);
    retention.addNew(msg);
    // Pending while its row is made, so that the row says when it becomes visible (its delay).
    visibility.pend(msg, delaySeconds);
    env.changes().messageStored(this, msg);
    if (!env.changes().holdsSendsUntilCommitted()) {
      // Relaxed durability and memory mode: receivable at once (or after its delay); under
      // durability commit only once its write has committed (commitPending).
      visibility.start(msg, delaySeconds, nowMillis);
    }
    return msg;
  }

  /**
   * Charges what the queue must remember beside its messages (FIFO deduplication entries): in paged
   * mode always, as messages then leave memory instead of being refused (§2.14), else as
   * {@link #charge}.
   */
  void chargeBookkeeping(long bytes) {
    if (env.window().paged()) {
      env.budget().chargeAnyway(bytes);
    } else {
      charge(bytes);
    }
  }

  /** Charges the shared memory budget, or answers the retryable RequestThrottled. */
  void charge(long bytes) {
    if (!env.budget().tryCharge(bytes)) {
      throw new SqsException(ErrorCode.REQUEST_THROTTLED, "Sluice's memory budget of " + env.budget().limitBytes()
          + " bytes is exhausted; retry after consumers have deleted messages.");
    }
  }

  /**
   * The write of a message this store logged has committed: a pending message starts its delay or
   * becomes receivable, a spilled one may be read back from now on. One purged or deleted with its
   * queue meanwhile stays gone. (Paged mode needs this for every stored message, both durabilities.)
   */
  public void commitPending(Message m, long nowMillis) {
    if (m.owner() != this) {
      return;
    }
    m.rowWritten = true;
    // Only sends held until committed wait here; a relaxed send is pending only within its store().
    if (m.state() == MessageState.PAGED_OUT) {
      backlog.spillCommitted(m, nowMillis);
    } else if (m.state() == MessageState.PENDING && env.changes().holdsSendsUntilCommitted()
        && !backlog.evictedOnCommit(m, nowMillis)) {
      visibility.start(m, m.pendingDelaySeconds(), nowMillis);
    }
  }

  /**
   * A pending or spilled message whose write failed for good: its send was never acknowledged (or,
   * written behind, is lost as any write-behind change may be), so it goes, and nothing may
   * remember it.
   */
  public void dropPending(Message m) {
    if (m.owner() == this) {
      queue.relayReceipts().messageLost(m.messageId()); // its receipt was in the same write
    }
    if (m.owner() == this && m.state() == MessageState.PENDING) {
      pendingDropped.accept(m);
      remove(m);
    } else if (m.owner() == this && m.state() == MessageState.PAGED_OUT) {
      pendingDropped.accept(m);
      backlog.spillFailed(m, m.sentAtMillis); // a past time: the queue looks again at once
    } else if (m.owner() == this) {
      m.rowLost = true;
    }
  }

  /**
   * Puts back a message from the durable store at start-up, in the state its row describes.
   * Messages must come in their queue's order (FIFO: by sequence number). Charged to the memory
   * budget; nothing is written back.
   */
  void restore(RestoredMessage r, long nowMillis) {
    byte[] content = ArrivingMessages.payload(r);
    int held = ArrivingMessages.heldBytes(content);
    charge(held);
    place(r, content, held, nowMillis, r.receiveCount() == 0);
  }

  /**
   * Paged mode: a row a page read brought back, behind the resident messages. Charged even past the
   * budget, as the read was sized to fit when it was asked for.
   */
  void restoreFromPage(RestoredMessage r, long nowMillis) {
    byte[] content = ArrivingMessages.payload(r);
    int held = ArrivingMessages.heldBytes(content);
    env.budget().chargeAnyway(held);
    place(r, content, held, nowMillis, true);
  }

  /** {@code inWindow}: never received here (every row a page brings; at start-up, by its count). */
  private void place(RestoredMessage r, byte[] content, int held, long nowMillis, boolean inWindow) {
    Message m = ArrivingMessages.restored(r, content, held, nowMillis);
    m.arrived(r.arrival(), r.firstVisibleAtMillis());
    m.ownedBy(this);
    contents.write(m, content); // the row's bytes as they are
    m.rowWritten = true;
    nextKey = Math.max(nextKey, r.key() + 1);
    byKey.put(m.key, m);
    retention.addMoved(m); // restored messages are not in sent order across queues' histories
    visibility.restore(m, backlog.restoredVisibleAt(r), r.inBackoff(), nowMillis);
    if (inWindow && m.state() != MessageState.IN_FLIGHT && m.state() != MessageState.BACKOFF) {
      backlog.admitted(m, nowMillis);
    }
  }

  /** Hands out the key of a message entering this queue. */
  long takeKey() {
    return nextKey++;
  }

  /**
   * A message moved in (see {@link QueueMoves}), visible at once; {@code keptSentTime}: it keeps the
   * time it was first sent; {@code atFront}: handed back, it goes before the messages sent after it.
   */
  void admit(Message m, byte[] content, boolean keptSentTime, boolean atFront, long nowMillis) {
    m.ownedBy(this);
    contents.write(m, content);
    backlog.admittedMoved(m, atFront, nowMillis);
    byKey.put(m.key, m);
    if (keptSentTime) {
      retention.addMoved(m);
    } else {
      retention.addNew(m);
    }
    env.changes().messageStored(this, m);
    if (atFront) {
      visibility.showAtFront(m, nowMillis);
    } else {
      visibility.show(m, false, nowMillis);
    }
  }

  boolean hasReceivable() {
    return visibility.hasReceivable();
  }

  /** See {@link Visibility#takeReceivable}. */
  void takeReceivable(int max, List<Message> out) {
    int from = out.size();
    visibility.takeReceivable(max, out);
    for (int i = from; i < out.size(); i++) {
      backlog.leftWindow(out.get(i));
    }
  }

  /** A message taken by a receive is received: counted, given a new receipt, hidden until due. */
  void received(Message m, long visibilityMillis, long nowMillis) {
    visibility.received(m, visibilityMillis, nowMillis);
    counters.countReceive();
    env.changes().messageChanged(this, m);
  }

  /** Messages just received with visibility 0 are receivable again at once, in their order. */
  void returnReceived(List<Message> received) {
    visibility.returnReceived(received);
  }

  /** An in-flight message stays hidden until {@code visibleAtMillis}, and the change is logged. */
  void hideUntil(Message m, long visibleAtMillis) {
    visibility.hideUntil(m, visibleAtMillis);
    env.changes().messageChanged(this, m);
  }

  /** ChangeMessageVisibility to 0: the in-flight message is visible again at once. */
  void showNow(Message m, long nowMillis) {
    visibility.showNow(m);
    env.changes().messageChanged(this, m);
    visibility.tellReceivable(nowMillis);
  }

  /** A delay or a visibility timeout ran out; paged, a delayed message may leave memory instead. */
  void onMessageDue(Message m, long nowMillis) {
    if (m.state() != MessageState.DELAYED || !backlog.evictedOnDue(m, nowMillis)) {
      visibility.onDue(m, nowMillis);
    }
  }

  /** Paged mode: a message leaves memory with no delete logged, its row staying (see Backlog). */
  void evict(Message m) {
    detach(m, false);
    env.budget().release(m.heldBytes);
    contents.release(m); // its row stays: a page read writes it in again
  }

  /** Every message still delayed is due {@code delayMillis} after it was sent, and not before now. */
  void rescheduleDelayed(long delayMillis, long nowMillis) {
    retention.forEach(m -> { // oldest first
      if (visibility.redelay(m, delayMillis, nowMillis)) {
        env.changes().messageChanged(this, m); // its row says when it becomes visible
      }
    });
  }

  /** The receipt handle of the message's latest receive. */
  String receiptHandle(Message m) {
    return env.handles().encode(metadata.generation(), m.key, m.receiptSequence());
  }

  /** The live message with this key, or null. */
  Message find(long key) {
    return byKey.get(key);
  }

  /** Every message held here (tests: the memory budget is charged for exactly these). */
  void forEachHeld(Consumer<Message> action) {
    byKey.forEach(action);
  }

  /** The retention period changed: the sweep is due for the oldest message under the new one. */
  void retentionChanged(long nowMillis) {
    retention.reschedule(nowMillis);
    backlog.operations().retentionChanged(nowMillis);
  }

  /** The retention sweep removed what had expired: waiting receives may have room now. */
  void swept(long nowMillis) {
    visibility.tellReceivable(nowMillis);
  }

  /** Takes a message out of every structure and releases its memory. */
  void remove(Message m) {
    if (m.state() != MessageState.GONE) {
      detach(m, true);
      env.budget().release(m.heldBytes);
      contents.release(m);
    }
  }

  /**
   * Takes a message out of every structure to move it to another queue; its memory charge stays
   * with it, and its content travels with it, copied out of the slab. Its row is not deleted now
   * but with the write of its copy's row (durable mode), so a crash in between leaves it here
   * rather than nowhere.
   */
  void detachForMove(Message m) {
    if (m.state() != MessageState.GONE) {
      m.movingFrom(metadata.generation());
      detach(m, false);
      contents.detach(m);
    }
  }

  private void detach(Message m, boolean logDelete) {
    backlog.leftWindow(m);
    visibility.leave(m);
    if (logDelete) {
      env.changes().messageDeleted(this, m);
    }
    byKey.remove(m.key);
    retention.remove(m);
  }

  /** Drops every message at once and releases their memory; nothing is logged per message. */
  void dropAll() {
    byKey.forEach(m -> {
      visibility.drop(m);
      env.budget().release(m.heldBytes);
      contents.release(m);
    });
    byKey.clear();
    retention.clear();
    visibility.clear();
    backlog.purged(nextKey);
    contents.trimIfEmpty();
  }

  /** The key the next message entering this queue gets: a purge removes every row below it. */
  long nextKey() {
    return nextKey;
  }

  /** Tells the queue that messages may be receivable now (waiting receives look again). */
  void tellReceivable(long nowMillis) {
    visibility.tellReceivable(nowMillis);
  }

  /** When the oldest message held was sent (durable-only rows too: {@link Backlog#oldestSentAtMillis}), or -1. */
  long oldestSentAtMillis() {
    Message oldest = retention.oldest();
    long sentAt = Math.min(oldest == null ? Long.MAX_VALUE : oldest.sentAtMillis, backlog.counts().oldestSentAtMillis());
    return sentAt == Long.MAX_VALUE ? -1 : sentAt;
  }

  int readyCount() {
    return visibility.readyCount();
  }

  /** Visible messages, durable-only rows that are visible included. */
  long visibleCount(long nowMillis) {
    return visibility.readyCount() + backlog.visibleRows(nowMillis);
  }

  int inflightCount() {
    return visibility.inflightCount();
  }

  /** Delayed messages, those in redelivery backoff and durable-only rows not visible yet included. */
  long delayedCount(long nowMillis) {
    return visibility.delayedCount() + backoffCount() + backlog.delayedRows(nowMillis);
  }

  int backoffCount() {
    return visibility.backoffCount();
  }
}
