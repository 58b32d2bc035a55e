package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pure model of one queue's SQS actions: sending, receiving (parking receives that find
 * nothing), deleting and changing visibility by receipt handle, purge, attributes and move tasks,
 * on top of the {@link MessageStore} that holds its messages. No Vert.x and no clock: every
 * operation takes the current time. Owned by the shard event loop that owns the queue; only that
 * loop may call it, and its timed items live in that shard's {@link DueTimeIndex}.
 *
 * <p>Subclasses decide how visible messages are held and picked (standard: one list in best-effort
 * order; FIFO: per message group, in order, with group locks).
 */
public abstract class QueueState extends MessageStore {
  private final ParkedReceives parked;
  private long purgeAllowedAtMillis = Long.MIN_VALUE;
  private final MoveTasks moveTasks = new MoveTasks();

  protected QueueState(ShardResources env, QueueMetadata metadata) {
    super(env, metadata);
    this.parked = new ParkedReceives(env.index(), env.parking());
  }

  // ---- the queue type's rules -------------------------------------------------------------------

  /**
   * Applies the rules of the queue type to a message that passed the common checks, and stores it
   * (or recognises it as a duplicate). {@code payload} is its size as SQS counts it.
   */
  protected abstract SendMessage.Response sendChecked(NewMessage m, boolean batchEntry, long payload, long nowMillis);

  /**
   * May this receipt delete ({@code delete}) or change the visibility of this message? Throws the
   * queue type's error if not (sqs-reference §4.6).
   */
  protected abstract void checkReceiptCurrent(Message m, ReceiptHandleCodec.Receipt r, String handle, boolean delete);

  // ---- sending ----------------------------------------------------------------------------------

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

  protected static SendMessage.Response sent(Message msg, NewMessage m) {
    return new SendMessage.Response(
        msg.messageId(), msg.md5OfBody(), msg.md5OfAttributes, Digests.md5OfAttributes(m.systemAttributes()),
        SequenceNumbers.format(msg.sequenceNumber));
  }

  // ---- receiving --------------------------------------------------------------------------------

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
        env.changes().messageChanged(this, m);
      }
      if (deadLetters == null) {
        break; // takeReceivable took all it could
      }
      for (Message m : deadLetters) {
        detachForMove(m);
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

  /** The server is stopping: every parked receive answers now, with no messages. */
  public void answerParkedEmpty() {
    parked.answerAllEmpty();
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

  // ---- receipts ---------------------------------------------------------------------------------

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
      env.changes().messageChanged(this, m);
      serveWaiters(nowMillis);
    } else {
      env.index().schedule(m, visibleAt);
      env.changes().messageChanged(this, m);
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

  // ---- purge, deletion, move tasks --------------------------------------------------------------

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

  // ---- attributes -------------------------------------------------------------------------------

  public void setAttributes(Map<String, String> changes, long nowMillis) {
    QueueAttributes old = attributes();
    metadata.setAttributes(old.with(changes), nowMillis);
    env.changes().queueSaved(this);
    if (attributes().retentionMillis() != old.retentionMillis()) {
      retention.reschedule(nowMillis);
    }
    if (attributes().delaySeconds() != old.delaySeconds()) {
      onDelayChanged(nowMillis);
    }
  }

  /** The queue's DelaySeconds changed: FIFO queues apply it to messages still delayed (§3.1). */
  protected void onDelayChanged(long nowMillis) {}

  /** GetQueueAttributes: the named attributes (or All) with their current values. */
  public Map<String, String> attributeValues(List<String> names) {
    return QueueAttributeView.render(this, names);
  }
}
