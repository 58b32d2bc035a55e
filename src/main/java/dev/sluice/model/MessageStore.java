package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * Where one queue's messages are and how they move between states: stored (charged to the memory
 * budget), delayed, visible, in flight and gone, indexed by key and ordered by sent time for
 * retention, with their timers in the shard's {@link DueTimeIndex}; and messages moving in from or
 * out to other queues. The SQS actions on top are {@link QueueState}'s; how visible messages are
 * held and picked is the queue type's (standard or FIFO). Pure: no Vert.x, no clock. Owned by the
 * shard event loop that owns the queue.
 */
public abstract class MessageStore {
  /** Per-message bookkeeping charged to the memory budget on top of the payload. */
  static final int MESSAGE_OVERHEAD_BYTES = 320;
  static final int SWEEP_BATCH = 10_000;

  protected final ShardResources env;
  final QueueMetadata metadata;
  final MessageIndex byKey = new MessageIndex();
  final RetentionOrder retention;
  private long nextKey;
  int inflightCount;
  private int delayedCount;
  boolean closed;

  protected MessageStore(ShardResources env, QueueMetadata metadata) {
    this.env = env;
    this.metadata = metadata;
    this.retention = new RetentionOrder(env.index(), this);
    this.nextKey = env.firstMessageKey();
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

  // ---- what the queue type provides --------------------------------------------------------

  /** Adds a now-visible message; {@code returning} after a visibility expiry or a change to 0. */
  protected abstract void addReady(Message m, boolean returning);

  /** A message starts its delay; FIFO queues keep its place in its group meanwhile. */
  protected void addDelayed(Message m) {}

  /** Makes messages just received with visibility 0 receivable again, keeping their order. */
  protected abstract void returnReceived(List<Message> received);

  /** Takes a ready, in-flight or delayed message out of the type's structures (it is being removed). */
  protected abstract void forget(Message m);

  /** Messages not in flight and not delayed (ApproximateNumberOfMessages). */
  protected abstract int readyCount();

  /**
   * Moves up to {@code max} receivable messages, in delivery order, out of the ready structure;
   * fewer only when no more are receivable right now.
   */
  protected abstract void takeReceivable(int max, List<Message> out);

  protected abstract boolean hasReceivable();

  protected abstract void clearReady();

  // ---- messages coming in -------------------------------------------------------------------

  /** Charges the memory budget for a checked message, builds it and enqueues it. */
  protected final Message store(
      NewMessage m, long payload, int delaySeconds, String dedupId, long sequenceNumber, long nowMillis) {
    // Charged as the heap holds it: a body with any character above U+00FF is stored as UTF-16.
    int held = (int) Math.max(payload, MessageValidation.heapBytes(m.body(), m.attributes())) + MESSAGE_OVERHEAD_BYTES;
    charge(held);
    String trace = m.systemAttributes() != null && m.systemAttributes().containsKey(MessageValidation.AWS_TRACE_HEADER)
        ? m.systemAttributes().get(MessageValidation.AWS_TRACE_HEADER).stringValue()
        : m.httpTraceHeader();
    var attrs = m.attributes() == null || m.attributes().isEmpty() ? null : new TreeMap<>(m.attributes());
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] md5 = Digests.md5(m.body());
    Message msg = new Message(
        nextKey++, random.nextLong(), random.nextLong(), m.body(), Bytes.longAt(md5, 0), Bytes.longAt(md5, 8),
        attrs, Digests.md5OfAttributes(attrs), trace, m.senderId(), nowMillis, m.groupId(), dedupId, sequenceNumber,
        held);
    enqueue(msg, delaySeconds, nowMillis);
    return msg;
  }

  /** Charges the shared memory budget, or answers the retryable RequestThrottled. */
  protected final void charge(long bytes) {
    if (!env.budget().tryCharge(bytes)) {
      throw new SqsException(
          ErrorCode.REQUEST_THROTTLED,
          "Sluice's memory budget of " + env.budget().limitBytes()
              + " bytes is exhausted; retry after consumers have deleted messages.");
    }
  }

  private void enqueue(Message msg, int delaySeconds, long nowMillis) {
    msg.owner = this;
    byKey.put(msg.key, msg);
    retention.addNew(msg);
    if (env.changes().holdsSendsUntilCommitted()) {
      // Durability commit: receivable only once its write has committed (commitPending).
      msg.state = MessageState.PENDING;
      msg.pendingDelaySeconds = delaySeconds;
      addDelayed(msg); // a FIFO message holds its place in its group meanwhile
      env.changes().messageStored(this, msg);
      return;
    }
    env.changes().messageStored(this, msg);
    startLife(msg, delaySeconds, nowMillis);
  }

  /** A stored message starts its delay, or becomes visible. */
  private void startLife(Message msg, int delaySeconds, long nowMillis) {
    long visibleAt = msg.sentAtMillis + delaySeconds * 1000L;
    if (delaySeconds > 0 && visibleAt > nowMillis) {
      msg.state = MessageState.DELAYED;
      delayedCount++;
      addDelayed(msg); // a no-op for a FIFO message already holding its place
      env.index().schedule(msg, visibleAt);
    } else {
      makeReady(msg, false, nowMillis);
    }
  }

  /**
   * The write of a pending message has committed: it starts its delay or becomes receivable. A
   * message purged or deleted with its queue meanwhile stays gone.
   */
  public void commitPending(Message m, long nowMillis) {
    if (m.owner == this && m.state == MessageState.PENDING) {
      startLife(m, m.pendingDelaySeconds, nowMillis);
    }
  }

  /**
   * A pending message whose write failed for good (durability commit): its send was never
   * acknowledged, so it goes, and nothing may remember it.
   */
  public void dropPending(Message m) {
    if (m.owner == this && m.state == MessageState.PENDING) {
      onPendingDropped(m);
      remove(m);
    }
  }

  /** FIFO queues forget the dropped message's deduplication entry. */
  protected void onPendingDropped(Message m) {}

  /**
   * Puts back a message from the durable store at start-up, in the state its row describes: in
   * flight (it was received) or delayed until its deadline, else visible. Messages must come in
   * their queue's order (FIFO: by sequence number). Charged to the memory budget; nothing is
   * written back.
   */
  public void restore(RestoredMessage r, long nowMillis) {
    var attrs = r.attributes() == null || r.attributes().isEmpty() ? null : new java.util.TreeMap<>(r.attributes());
    int held = (int) Math.max(MessageValidation.payloadBytes(r.body(), attrs), MessageValidation.heapBytes(r.body(), attrs))
        + MESSAGE_OVERHEAD_BYTES;
    charge(held);
    byte[] md5 = Digests.md5(r.body());
    Message m = new Message(r.key(), r.messageId().getMostSignificantBits(), r.messageId().getLeastSignificantBits(),
        r.body(), Bytes.longAt(md5, 0), Bytes.longAt(md5, 8), attrs, Digests.md5OfAttributes(attrs), r.traceHeader(),
        r.senderId(), r.sentAtMillis(), r.groupId(), r.deduplicationId(), r.sequenceNumber(), r.deadLetterSourceArn(),
        held);
    m.receiveCount = r.receiveCount();
    m.firstReceiveAtMillis = r.firstReceiveAtMillis();
    m.receiptSequence = r.receiptSequence();
    m.receivedAtMillis = r.receiveCount() > 0 ? nowMillis : 0;
    m.owner = this;
    nextKey = Math.max(nextKey, r.key() + 1);
    restoredSequence(r.sequenceNumber());
    byKey.put(m.key, m);
    retention.addMoved(m); // restored messages are not in sent order across queues' histories
    if (r.visibleAtMillis() > nowMillis && r.receiveCount() > 0) {
      m.state = MessageState.IN_FLIGHT;
      inflightCount++;
      addDelayed(m); // a FIFO message holds its place in its group, locking it
      env.index().schedule(m, r.visibleAtMillis());
    } else if (r.visibleAtMillis() > nowMillis) {
      m.state = MessageState.DELAYED;
      delayedCount++;
      addDelayed(m);
      env.index().schedule(m, r.visibleAtMillis());
    } else {
      m.state = MessageState.READY;
      addReady(m, false);
    }
  }

  /** FIFO queues continue their sequence numbers after the highest restored. */
  protected void restoredSequence(long sequenceNumber) {}

  /** A new key for a message entering this queue. */
  protected final long nextKey() {
    return nextKey++;
  }

  private void makeReady(Message m, boolean returning, long nowMillis) {
    m.state = MessageState.READY;
    addReady(m, returning);
    serveWaiters(nowMillis);
  }

  /**
   * Takes in a message moved here from another queue (a dead letter, a message a move task
   * redrives, or one handed back because its destination was gone): it is visible at once, and
   * its memory charge comes with it.
   */
  protected final void adopt(Message m, long nowMillis) {
    m.owner = this;
    byKey.put(m.key, m);
    retention.addMoved(m);
    env.changes().messageStored(this, m);
    makeReady(m, false, nowMillis);
  }

  /**
   * Hands a message back to this queue as it was, at the front (its next hop was gone): it keeps
   * its place before the messages sent after it, and in a FIFO queue its sequence number. If this
   * queue has been deleted meanwhile, the message goes with it. To hand back several, go from the
   * last to the first.
   */
  public void takeBackOrRelease(Message from, long nowMillis) {
    if (closed) {
      env.budget().release(from.heldBytes);
      return;
    }
    Message m = new Message(from, nextKey(), from.deduplicationId, from.sequenceNumber, from.deadLetterSourceArn);
    m.owner = this;
    byKey.put(m.key, m);
    retention.addMoved(m);
    env.changes().messageStored(this, m);
    placeAtFront(m);
    makeReady(m, true, nowMillis);
  }

  /** FIFO queues put a message handed back at the head of its group. */
  protected void placeAtFront(Message m) {}

  /** A dead letter from {@code sourceArn} (sqs-reference §7.1): same message, new queue. */
  public void adoptDeadLetter(Message from, String sourceArn, long nowMillis) {
    // On the way to a FIFO dead-letter queue the deduplication id becomes the MessageId (§6).
    String dedupId = attributes().fifo() ? from.messageId() : from.deduplicationId;
    adopt(new Message(from, nextKey(), dedupId, nextSequenceNumber(), sourceArn), nowMillis);
  }

  /** A message a move task redrives here (§7.3): a new message with the same content. */
  public void adoptRedriven(Message from, long nowMillis) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    String dedupId = attributes().fifo() ? from.deduplicationId != null ? from.deduplicationId : from.messageId() : null;
    Message m = new Message(from, nextKey(), random.nextLong(), random.nextLong(), nowMillis, dedupId,
        nextSequenceNumber());
    m.owner = this;
    byKey.put(m.key, m);
    retention.addNew(m);
    env.changes().messageStored(this, m);
    makeReady(m, false, nowMillis);
  }

  /** The next FIFO sequence number; 0 (none) on standard queues. */
  protected long nextSequenceNumber() {
    return 0;
  }

  /**
   * Takes up to {@code max} visible messages out of the queue, in delivery order, for a move task;
   * their memory charge goes with them.
   */
  List<Message> takeForMove(int max) {
    List<Message> taken = new ArrayList<>(max);
    takeReceivable(max, taken);
    for (Message m : taken) {
      m.state = MessageState.IN_FLIGHT; // as a receive does, so detach finds them where they are
      inflightCount++;
      detachForMove(m);
    }
    return taken;
  }

  /** The receipt handle of the message's latest receive. */
  protected final String receiptHandle(Message m) {
    return env.handles().encode(metadata.generation(), m.key, m.receiptSequence);
  }

  /** The live message with this key, or null. */
  protected final Message find(long key) {
    return byKey.get(key);
  }

  // ---- time ---------------------------------------------------------------------------------

  /** A delay or a visibility timeout ran out: the message becomes visible. */
  void onMessageDue(Message m, long nowMillis) {
    if (m.state == MessageState.DELAYED) {
      delayedCount--;
      makeReady(m, false, nowMillis);
    } else if (m.state == MessageState.IN_FLIGHT) {
      returnToReady(m);
      returnAlsoDue(m, nowMillis);
      serveWaiters(nowMillis);
    }
  }

  /** An in-flight message becomes visible again (its waiters are served by the caller). */
  protected final void returnToReady(Message m) {
    env.index().cancel(m);
    inflightCount--;
    m.state = MessageState.READY;
    addReady(m, true);
  }

  /**
   * After {@code m}'s visibility ran out: FIFO queues return the rest of its group that is due at
   * the same moment before any waiter is served, so a group is never handed out piecemeal.
   */
  protected void returnAlsoDue(Message m, long nowMillis) {}

  /**
   * Drops every message older than the retention period, in flight or not (§5.3). At most
   * {@link #SWEEP_BATCH} per turn, so a mass expiry never stalls the shard's other queues: the rest
   * is due again at once.
   */
  void sweepRetention(long nowMillis) {
    long retentionMillis = attributes().retentionMillis();
    Message oldest;
    int swept = 0;
    while ((oldest = retention.oldest()) != null && oldest.sentAtMillis + retentionMillis <= nowMillis) {
      if (swept++ == SWEEP_BATCH) {
        break;
      }
      remove(oldest);
    }
    retention.reschedule(nowMillis);
    serveWaiters(nowMillis); // expired in-flight messages may have made room under the cap
  }

  // ---- messages going out -------------------------------------------------------------------

  /** Takes a message out of every structure and releases its memory. */
  protected void remove(Message m) {
    if (m.state != MessageState.GONE) {
      detach(m);
      env.budget().release(m.heldBytes);
    }
  }

  /**
   * Takes a message out of every structure to move it to another queue; its memory charge stays
   * with it. Its row is not deleted now but with the write of its copy's row (durable mode), so a
   * crash in between leaves it here rather than nowhere.
   */
  protected final void detachForMove(Message m) {
    if (m.state != MessageState.GONE) {
      m.originQueueId = metadata.generation();
      m.originKey = m.key;
      detach(m, false);
    }
  }

  /** Takes a message out of every structure; its memory charge stays with it (it is moving on). */
  protected final void detach(Message m) {
    detach(m, true);
  }

  private void detach(Message m, boolean logDelete) {
    switch (m.state) {
      case READY -> forget(m);
      case IN_FLIGHT -> {
        env.index().cancel(m);
        inflightCount--;
        forget(m);
      }
      case DELAYED -> {
        env.index().cancel(m);
        delayedCount--;
        forget(m);
      }
      case PENDING -> forget(m);
      case GONE -> {
        return;
      }
    }
    if (logDelete) {
      env.changes().messageDeleted(this, m);
    }
    m.state = MessageState.GONE;
    byKey.remove(m.key);
    retention.remove(m);
  }

  protected void dropAllMessages() {
    if (!closed) {
      env.changes().queuePurged((QueueState) this); // a deleted queue's rows go with the queue
    }
    byKey.forEach(m -> {
      env.index().cancel(m);
      m.state = MessageState.GONE;
      env.budget().release(m.heldBytes);
    });
    byKey.clear();
    retention.clear();
    clearReady();
    inflightCount = 0;
    delayedCount = 0;
  }

  /** Every message still delayed, oldest first. */
  protected final void forEachDelayed(Consumer<Message> action) {
    retention.forEach(m -> {
      if (m.state == MessageState.DELAYED) {
        action.accept(m);
      }
    });
  }

  /** When the oldest message still held was sent, or -1 when the queue holds none. */
  public long oldestSentAtMillis() {
    Message oldest = retention.oldest();
    return oldest == null ? -1 : oldest.sentAtMillis;
  }

  public int approximateNumberOfMessages() {
    return readyCount();
  }

  public int approximateNumberOfMessagesNotVisible() {
    return inflightCount;
  }

  public int approximateNumberOfMessagesDelayed() {
    return delayedCount;
  }

  /** Messages became receivable: hand them to waiting receives. */
  protected abstract void serveWaiters(long nowMillis);
}
