package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pure model of one queue: its messages in every state, its parked receives, and the rules of
 * sending, receiving, deleting and changing visibility. No Vert.x and no clock: every operation
 * takes the current time. Owned by the shard event loop that owns the queue; only that loop may
 * call it, and its timed items live in that shard's {@link DueTimeIndex}.
 *
 * <p>Subclasses decide how visible messages are held and picked (standard: one list in best-effort
 * order; FIFO: per message group, in order, with group locks).
 */
public abstract class QueueState {
  /** Per-message bookkeeping charged to the memory budget on top of the payload. */
  static final int MESSAGE_OVERHEAD_BYTES = 320;
  static final int SWEEP_BATCH = 10_000;

  protected final ShardResources env;
  private final QueueMetadata metadata;
  private final MessageIndex byKey = new MessageIndex();
  private final RetentionOrder retention;
  private long nextKey = 1;
  private int inflightCount;
  private int delayedCount;
  private final ParkedReceives parked;
  private long purgeAllowedAtMillis = Long.MIN_VALUE;
  private boolean closed;
  private final MoveTasks moveTasks = new MoveTasks();

  protected QueueState(ShardResources env, QueueMetadata metadata) {
    this.env = env;
    this.metadata = metadata;
    this.parked = new ParkedReceives(env.index(), env.parking());
    this.retention = new RetentionOrder(env.index(), this);
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

  // ---- what subclasses provide -------------------------------------------------------------

  /**
   * Applies the rules of the queue type to a message that passed the common checks, and stores it
   * (or recognises it as a duplicate). {@code payload} is its size as SQS counts it.
   */
  protected abstract SendMessage.Response sendChecked(NewMessage m, boolean batchEntry, long payload, long nowMillis);

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

  /**
   * May this receipt delete ({@code delete}) or change the visibility of this message? Throws the
   * queue type's error if not (sqs-reference §4.6).
   */
  protected abstract void checkReceiptCurrent(Message m, ReceiptHandleCodec.Receipt r, String handle, boolean delete);

  // ---- sending ------------------------------------------------------------------------------

  public SendMessage.Response send(NewMessage m, boolean batchEntry, long nowMillis) {
    MessageValidation.checkBody(m.body());
    MessageValidation.checkAttributes(m.attributes());
    MessageValidation.checkSystemAttributes(m.systemAttributes());
    if (m.groupId() != null) {
      MessageValidation.checkGroupOrDedupId(m.groupId(), "MessageGroupId");
    }
    if (m.deduplicationId() != null) {
      MessageValidation.checkGroupOrDedupId(m.deduplicationId(), "MessageDeduplicationId");
    }
    long payload = MessageValidation.payloadBytes(m.body(), m.attributes());
    int max = attributes().maximumMessageSize();
    if (payload > max) {
      throw SqsException.invalidParameter(
          (batchEntry ? "One or more parameters cannot be validated." : "One or more parameters are invalid.")
              + " Reason: Message must be shorter than " + max + " bytes.");
    }
    return sendChecked(m, batchEntry, payload, nowMillis);
  }

  /**
   * Checks the rules a batch must meet as a whole before any entry is sent (sqs-reference §2.9,
   * §5.6): the queue type's own whole-request rules, then the 1 MiB total.
   */
  public void checkBatch(List<NewMessage> messages) {
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

  protected static SendMessage.Response sent(Message msg, NewMessage m) {
    return new SendMessage.Response(
        msg.messageId(), msg.md5OfBody(), msg.md5OfAttributes, Digests.md5OfAttributes(m.systemAttributes()),
        SequenceNumbers.format(msg.sequenceNumber));
  }

  private void enqueue(Message msg, int delaySeconds, long nowMillis) {
    msg.owner = this;
    byKey.put(msg.key, msg);
    retention.addNew(msg);
    if (delaySeconds > 0) {
      msg.state = MessageState.DELAYED;
      delayedCount++;
      addDelayed(msg);
      env.index().schedule(msg, nowMillis + delaySeconds * 1000L);
    } else {
      makeReady(msg, false, nowMillis);
    }
  }

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
    makeReady(m, false, nowMillis);
  }

  /** The next FIFO sequence number; 0 (none) on standard queues. */
  protected long nextSequenceNumber() {
    return 0;
  }

  // ---- receiving ----------------------------------------------------------------------------

  /**
   * Receives up to the spec's maximum right now; an empty list when nothing is receivable. A
   * message that has already been received maxReceiveCount times moves to the dead-letter queue
   * instead of being returned (sqs-reference §7.1), and the receive goes on with the next one.
   */
  public List<ReceiveMessage.Message> receive(ReceiveSpec spec, long nowMillis) {
    int room = env.maxInflightPerQueue() - inflightCount;
    int max = spec.visibilitySeconds() == 0 ? spec.maxMessages() : Math.min(spec.maxMessages(), room);
    if (max <= 0) {
      return List.of();
    }
    RedrivePolicy redrive = attributes().redrivePolicy();
    if (redrive != null && !env.deadLetters().exists(redrive.deadLetterTargetArn())) {
      redrive = null;
    }
    List<Message> batch = new ArrayList<>(max);
    List<Message> received = new ArrayList<>(max);
    List<ReceiveMessage.Message> out = new ArrayList<>(max);
    long visibilityMillis = spec.visibilitySeconds() * 1000L;
    while (received.size() < max) {
      batch.clear();
      takeReceivable(max - received.size(), batch);
      List<Message> deadLetters = null;
      for (Message m : batch) {
        // In flight from here on, even with visibility 0 until the end of this receive, so that a
        // FIFO group stays locked while the rest of the receive is picked.
        m.state = MessageState.IN_FLIGHT;
        inflightCount++;
        if (redrive != null && m.receiveCount >= redrive.maxReceiveCount()) {
          (deadLetters == null ? deadLetters = new ArrayList<>() : deadLetters).add(m);
          continue;
        }
        m.receiveCount++;
        if (m.receiveCount == 1) {
          m.firstReceiveAtMillis = nowMillis;
        }
        m.receiptSequence++;
        m.receivedAtMillis = nowMillis;
        out.add(ReceivedMessages.view(m, receiptHandle(m), spec.selection()));
        received.add(m);
        if (visibilityMillis > 0) {
          env.index().schedule(m, nowMillis + visibilityMillis);
        }
      }
      if (deadLetters == null) {
        break; // takeReceivable took all it could
      }
      for (Message m : deadLetters) {
        detach(m);
        env.deadLetters().moveTo(redrive.deadLetterTargetArn(), this, m, nowMillis);
      }
    }
    if (visibilityMillis == 0 && !received.isEmpty()) {
      // Visibility 0 leaves the messages receivable at once (sqs-reference §5.1), in their order.
      for (Message m : received) {
        m.state = MessageState.READY;
        inflightCount--;
      }
      returnReceived(received);
    }
    afterReceive(spec, received, out, nowMillis);
    return out;
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
      detach(m);
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

  /** Called with what a receive returned (possibly nothing); FIFO queues remember attempt ids. */
  protected void afterReceive(
      ReceiveSpec spec, List<Message> received, List<ReceiveMessage.Message> views, long nowMillis) {}

  /** True when the in-flight cap is reached: a short poll then answers OverLimit (§5.5). */
  public boolean inflightLimitReached() {
    return inflightCount >= env.maxInflightPerQueue();
  }

  /** Parks a receive that found nothing until {@code deadlineMillis}; throttled past the bounds. */
  public void park(Waiter w, long deadlineMillis) {
    parked.park(w, deadlineMillis);
  }

  /** Drops a parked receive whose caller went away; it will never complete. */
  public void cancel(Waiter w) {
    parked.cancel(w);
  }

  public int parkedCount() {
    return parked.size();
  }

  /** Hands receivable messages to the oldest parked receives, one receive each, until none fit. */
  protected final void serveWaiters(long nowMillis) {
    while (!parked.isEmpty() && hasReceivable() && !inflightLimitReached()) {
      Waiter w = parked.oldest();
      if (w == null) {
        return;
      }
      List<ReceiveMessage.Message> got = receive(w.spec, nowMillis);
      if (got.isEmpty()) {
        return; // all it found went to the dead-letter queue: the waiter keeps waiting
      }
      parked.take(w);
      w.complete(got);
    }
  }

  // ---- receipts -----------------------------------------------------------------------------

  public void delete(String handle, long nowMillis) {
    ReceiptHandleCodec.Receipt r = decode(handle);
    Message m = byKey.get(r.messageKey());
    if (m == null) {
      return; // already deleted: deleting again succeeds (sqs-reference §2.11)
    }
    checkReceiptCurrent(m, r, handle, true);
    remove(m);
    serveWaiters(nowMillis);
  }

  public void changeVisibility(String handle, int seconds, long nowMillis) {
    ReceiptHandleCodec.Receipt r = decode(handle);
    Message m = byKey.get(r.messageKey());
    if (m == null) {
      throw SqsException.invalidValue(
          handle, "ReceiptHandle", "Message does not exist or is not available for visibility timeout change.");
    }
    checkReceiptCurrent(m, r, handle, false);
    if (m.state != MessageState.IN_FLIGHT) {
      return; // visibility already expired: no effect on a visible message (§2.13)
    }
    long visibleAt = nowMillis + seconds * 1000L;
    if (visibleAt - m.receivedAtMillis > Limits.VISIBILITY_SECONDS_MAX * 1000L) {
      throw SqsException.invalidValue(
          seconds, "VisibilityTimeout",
          "Total VisibilityTimeout for the message is beyond the limit [43200 seconds]");
    }
    if (seconds == 0) {
      returnToReady(m);
      serveWaiters(nowMillis);
    } else {
      env.index().schedule(m, visibleAt);
    }
  }

  private ReceiptHandleCodec.Receipt decode(String handle) {
    ReceiptHandleCodec.Receipt r = env.handles().decode(metadata.generation(), handle);
    if (r == null) {
      throw new SqsException(
          ErrorCode.RECEIPT_HANDLE_IS_INVALID,
          "The input receipt handle \"" + handle + "\" is not a valid receipt handle.");
    }
    return r;
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

  // ---- removal ------------------------------------------------------------------------------

  /** Takes a message out of every structure and releases its memory. */
  protected void remove(Message m) {
    if (m.state != MessageState.GONE) {
      detach(m);
      env.budget().release(m.heldBytes);
    }
  }

  /** Takes a message out of every structure; its memory charge stays with it (it is moving on). */
  protected final void detach(Message m) {
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
      case GONE -> {
        return;
      }
    }
    m.state = MessageState.GONE;
    byKey.remove(m.key);
    retention.remove(m);
  }

  public void purge(long nowMillis) {
    if (nowMillis < purgeAllowedAtMillis) {
      throw new SqsException(
          ErrorCode.PURGE_QUEUE_IN_PROGRESS,
          "Only one PurgeQueue operation on " + name() + " is allowed every 60 seconds.");
    }
    purgeAllowedAtMillis = nowMillis + Limits.PURGE_INTERVAL_MILLIS;
    dropAllMessages();
  }

  /** The queue is being deleted: parked receives answer empty and every message is released. */
  public void close() {
    closed = true;
    dropAllMessages();
    parked.answerAllEmpty();
    moveTasks.abandonAll();
  }

  // ---- message move tasks -------------------------------------------------------------------

  /**
   * StartMessageMoveTask on this dead-letter queue (sqs-reference §7.3); the caller has checked that
   * it is one and that the destination exists.
   */
  public MessageMoveTask startMoveTask(
      String destinationArn, Integer maxPerSecond, MessageMover mover, long nowMillis) {
    return moveTasks.start(this, destinationArn, maxPerSecond, mover, nowMillis);
  }

  /** The most recent move tasks, newest first. */
  public List<MessageMoveTask> moveTasks() {
    return moveTasks.newestFirst();
  }

  protected void dropAllMessages() {
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

  // ---- attributes ---------------------------------------------------------------------------

  public void setAttributes(Map<String, String> changes, long nowMillis) {
    QueueAttributes old = attributes();
    metadata.setAttributes(old.with(changes), nowMillis);
    if (attributes().retentionMillis() != old.retentionMillis()) {
      retention.reschedule(nowMillis);
    }
    if (attributes().delaySeconds() != old.delaySeconds()) {
      onDelayChanged(nowMillis);
    }
  }

  /** The queue's DelaySeconds changed: FIFO queues apply it to messages still delayed (§3.1). */
  protected void onDelayChanged(long nowMillis) {}

  /** Every message still delayed, oldest first. */
  protected final void forEachDelayed(java.util.function.Consumer<Message> action) {
    retention.forEach(m -> {
      if (m.state == MessageState.DELAYED) {
        action.accept(m);
      }
    });
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

  /** GetQueueAttributes: the named attributes (or All) with their current values. */
  public Map<String, String> attributeValues(List<String> names) {
    return QueueAttributeView.render(this, names);
  }
}
