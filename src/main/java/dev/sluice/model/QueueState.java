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
  private final MessageList sendOrder = new MessageList(MessageList.Links.SEND_ORDER);
  private long nextKey = 1;
  private int inflightCount;
  private int delayedCount;
  private final ParkedReceives parked;
  private final RetentionSweep sweep = new RetentionSweep();
  private long purgeAllowedAtMillis = Long.MIN_VALUE;

  protected QueueState(ShardResources env, QueueMetadata metadata) {
    this.env = env;
    this.metadata = metadata;
    this.parked = new ParkedReceives(env.index(), env.parking());
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

  /** Validates what depends on the queue type and returns the message's delay in seconds. */
  protected abstract int checkTypeRules(NewMessage m, boolean batchEntry);

  /** Adds a now-visible message; {@code returning} after a visibility expiry or a change to 0. */
  protected abstract void addReady(Message m, boolean returning);

  protected abstract void removeReady(Message m);

  /** Messages not in flight and not delayed (ApproximateNumberOfMessages). */
  protected abstract int readyCount();

  /** Moves up to {@code max} receivable messages, in delivery order, out of the ready structure. */
  protected abstract void takeReceivable(int max, List<Message> out);

  protected abstract boolean hasReceivable();

  protected abstract void clearReady();

  /** May this receipt delete or change this message? Throws the queue type's error if not. */
  protected abstract void checkReceiptCurrent(Message m, ReceiptHandleCodec.Receipt r, String handle);

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
    int delaySeconds = checkTypeRules(m, batchEntry);
    // Charged as the heap holds it: a body with any character above U+00FF is stored as UTF-16.
    int held = (int) Math.max(payload, MessageValidation.heapBytes(m.body(), m.attributes())) + MESSAGE_OVERHEAD_BYTES;
    if (!env.budget().tryCharge(held)) {
      throw new SqsException(
          ErrorCode.REQUEST_THROTTLED,
          "Sluice's memory budget of " + env.budget().limitBytes()
              + " bytes is exhausted; retry after consumers have deleted messages.");
    }
    Message msg = newMessage(m, held, nowMillis);
    enqueue(msg, delaySeconds, nowMillis);
    String md5OfSystem = Digests.md5OfAttributes(m.systemAttributes());
    return new SendMessage.Response(
        msg.messageId(), msg.md5OfBody(), msg.md5OfAttributes, md5OfSystem, msg.sequenceNumber);
  }

  /** Builds the stored message; FIFO queues add a sequence number and deduplication id. */
  protected Message newMessage(NewMessage m, int held, long nowMillis) {
    return buildMessage(m, held, nowMillis, m.deduplicationId(), null);
  }

  protected final Message buildMessage(
      NewMessage m, int held, long nowMillis, String dedupId, String sequenceNumber) {
    String trace = m.systemAttributes() != null && m.systemAttributes().containsKey(MessageValidation.AWS_TRACE_HEADER)
        ? m.systemAttributes().get(MessageValidation.AWS_TRACE_HEADER).stringValue()
        : m.httpTraceHeader();
    var attrs = m.attributes() == null || m.attributes().isEmpty() ? null : new TreeMap<>(m.attributes());
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] md5 = Digests.md5(m.body());
    return new Message(
        nextKey++, random.nextLong(), random.nextLong(), m.body(), Bytes.longAt(md5, 0), Bytes.longAt(md5, 8),
        attrs, Digests.md5OfAttributes(attrs), trace, m.senderId(), nowMillis, m.groupId(), dedupId, sequenceNumber,
        held);
  }

  private void enqueue(Message msg, int delaySeconds, long nowMillis) {
    msg.owner = this;
    byKey.put(msg.key, msg);
    sendOrder.addLast(msg);
    if (!sweep.isScheduled()) {
      env.index().schedule(sweep, msg.sentAtMillis + attributes().retentionMillis());
    }
    if (delaySeconds > 0) {
      msg.state = MessageState.DELAYED;
      delayedCount++;
      env.index().schedule(msg, nowMillis + delaySeconds * 1000L);
    } else {
      makeReady(msg, false, nowMillis);
    }
  }

  private void makeReady(Message m, boolean returning, long nowMillis) {
    m.state = MessageState.READY;
    addReady(m, returning);
    serveWaiters(nowMillis);
  }

  // ---- receiving ----------------------------------------------------------------------------

  /** Receives up to the spec's maximum right now; an empty list when nothing is receivable. */
  public List<ReceiveMessage.Message> receive(ReceiveSpec spec, long nowMillis) {
    int room = env.maxInflightPerQueue() - inflightCount;
    int max = spec.visibilitySeconds() == 0 ? spec.maxMessages() : Math.min(spec.maxMessages(), room);
    if (max <= 0) {
      return List.of();
    }
    List<Message> picked = new ArrayList<>(max);
    takeReceivable(max, picked);
    if (picked.isEmpty()) {
      return List.of();
    }
    long visibilityMillis = spec.visibilitySeconds() * 1000L;
    List<ReceiveMessage.Message> out = new ArrayList<>(picked.size());
    for (Message m : picked) {
      m.receiveCount++;
      if (m.receiveCount == 1) {
        m.firstReceiveAtMillis = nowMillis;
      }
      m.receiptSequence++;
      m.receivedAtMillis = nowMillis;
      String handle = env.handles().encode(metadata.generation(), m.key, m.receiptSequence);
      out.add(ReceivedMessages.view(m, handle, spec.selection()));
      if (visibilityMillis > 0) {
        m.state = MessageState.IN_FLIGHT;
        inflightCount++;
        env.index().schedule(m, nowMillis + visibilityMillis);
      }
    }
    if (visibilityMillis == 0) {
      // Visibility 0 leaves the messages receivable at once (sqs-reference §5.1), in their order.
      for (int i = picked.size() - 1; i >= 0; i--) {
        picked.get(i).state = MessageState.READY;
        addReady(picked.get(i), true);
      }
    }
    return out;
  }

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
      Waiter w = parked.takeOldest();
      w.complete(receive(w.spec, nowMillis));
    }
  }

  // ---- receipts -----------------------------------------------------------------------------

  public void delete(String handle, long nowMillis) {
    ReceiptHandleCodec.Receipt r = decode(handle);
    Message m = byKey.get(r.messageKey());
    if (m == null) {
      return; // already deleted: deleting again succeeds (sqs-reference §2.11)
    }
    checkReceiptCurrent(m, r, handle);
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
    checkReceiptCurrent(m, r, handle);
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
      env.index().cancel(m);
      inflightCount--;
      makeReady(m, true, nowMillis);
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
      inflightCount--;
      makeReady(m, true, nowMillis);
    }
  }

  /**
   * Drops every message older than the retention period, in flight or not (§5.3). At most
   * {@link #SWEEP_BATCH} per turn, so a mass expiry never stalls the shard's other queues: the rest
   * is due again at once.
   */
  void sweepRetention(long nowMillis) {
    long retention = attributes().retentionMillis();
    Message head;
    int swept = 0;
    while ((head = sendOrder.first()) != null && head.sentAtMillis + retention <= nowMillis) {
      if (swept++ == SWEEP_BATCH) {
        env.index().schedule(sweep, nowMillis);
        break;
      }
      remove(head);
    }
    if (head != null && !sweep.isScheduled()) {
      env.index().schedule(sweep, head.sentAtMillis + retention);
    }
    serveWaiters(nowMillis); // expired in-flight messages may have made room under the cap
  }

  private final class RetentionSweep extends Timed {
    @Override
    public void onDue(long nowMillis) {
      sweepRetention(nowMillis);
    }
  }

  // ---- removal ------------------------------------------------------------------------------

  /** Takes a message out of every structure and releases its memory. */
  protected void remove(Message m) {
    switch (m.state) {
      case READY -> removeReady(m);
      case IN_FLIGHT -> {
        env.index().cancel(m);
        inflightCount--;
      }
      case DELAYED -> {
        env.index().cancel(m);
        delayedCount--;
      }
      case GONE -> {
        return;
      }
    }
    m.state = MessageState.GONE;
    byKey.remove(m.key);
    env.budget().release(m.heldBytes);
    sendOrder.remove(m);
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
    dropAllMessages();
    parked.answerAllEmpty();
  }

  protected void dropAllMessages() {
    byKey.forEach(m -> {
      env.index().cancel(m);
      m.state = MessageState.GONE;
      env.budget().release(m.heldBytes);
    });
    byKey.clear();
    sendOrder.clear();
    clearReady();
    inflightCount = 0;
    delayedCount = 0;
    env.index().cancel(sweep);
  }

  // ---- attributes ---------------------------------------------------------------------------

  public void setAttributes(Map<String, String> changes, long nowMillis) {
    long oldRetention = attributes().retentionMillis();
    metadata.setAttributes(attributes().with(changes), nowMillis);
    if (attributes().retentionMillis() != oldRetention) {
      Message head = sendOrder.first();
      if (head != null) {
        env.index().schedule(sweep, head.sentAtMillis + attributes().retentionMillis());
      }
    }
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
