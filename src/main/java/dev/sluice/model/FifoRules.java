package dev.sluice.model;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.List;

/**
 * Owned by its FIFO queue, on the shard event loop that owns the queue: the sequence counter, the
 * deduplication window and the receive attempts.
 *
 * <p>The rules of a FIFO queue (AWS: Amazon SQS FIFO queues). Sends are deduplicated for five
 * minutes by MessageDeduplicationId or the body's SHA-256, per queue or per group as the
 * DeduplicationScope was at creation (AWS keeps the creation-time scope), and numbered in sequence.
 * Only the current receipt of a message in flight deletes it, and a receive retried with its
 * ReceiveRequestAttemptId gets the same messages again while none of them changed.
 */
final class FifoRules implements QueueTypeRules {
  private final ShardResources env;
  private final MessageStore store;
  private final boolean deduplicateWithinGroup;
  private final DeduplicationWindow deduplication;
  private final ReceiveAttempts attempts = new ReceiveAttempts();
  private long lastSequenceNumber;

  FifoRules(ShardResources env, MessageStore store, QueueMetadata metadata) {
    this.env = env;
    this.store = store;
    this.lastSequenceNumber = SequenceNumbers.firstFor(metadata.createdAtMillis());
    this.deduplicateWithinGroup =
        "messageGroup".equals(metadata.attributes().shown(QueueAttributes.DEDUPLICATION_SCOPE));
    this.deduplication = new DeduplicationWindow(env.index(), env.budget());
  }

  // ---- sending ------------------------------------------------------------------------------

  @Override
  public void checkBatch(List<NewMessage> messages) {
    // A batch entry without a group or a deduplication id fails the whole request
    // (AWS: SendMessageBatch).
    for (NewMessage m : messages) {
      if (m.groupId() == null) {
        throw SqsException.invalidParameter("The request must contain the parameter MessageGroupId.");
      }
      checkDeduplicationPossible(m);
    }
  }

  @Override
  public SendMessage.Response send(NewMessage m, boolean batchEntry, long nowMillis) {
    if (m.groupId() == null) {
      throw SqsException.missingParameter("MessageGroupId");
    }
    Integer delay = m.delaySeconds();
    if (delay != null && delay != 0) {
      // Only the queue's delay applies to FIFO messages; an explicit 0 is accepted
      // (AWS: SendMessage, DelaySeconds).
      throw SqsException.invalidValue(
          delay, "DelaySeconds", "The request include parameter that is not valid for this queue type.");
    }
    checkDeduplicationPossible(m);
    String dedupId = m.deduplicationId() != null ? m.deduplicationId() : Digests.sha256Hex(m.body());
    // Group ids are printable ASCII, so \u0001 cannot occur in one; and unlike \u0000, PostgreSQL's
    // text type can store it (the durable store keeps these keys).
    String key = deduplicateWithinGroup ? m.groupId() + '\u0001' + dedupId : dedupId;
    DeduplicationWindow.Original original = deduplication.find(key, nowMillis);
    if (original != null) {
      // A duplicate succeeds without being enqueued, and answers with the original's id.
      return new SendMessage.Response(
          original.messageId(), Digests.md5Hex(m.body()), Digests.md5OfAttributes(m.attributes()),
          Digests.md5OfAttributes(m.systemAttributes()), SequenceNumbers.format(original.sequenceNumber()));
    }
    int entryBytes = DeduplicationWindow.bytesFor(key);
    store.chargeBookkeeping(entryBytes);
    Message msg;
    try {
      msg = store.store(m, store.backlog().fifoDelays().sendDelaySeconds(nowMillis), dedupId, nextSequenceNumber(),
          nowMillis);
    } catch (SqsException e) {
      env.budget().release(entryBytes);
      throw e;
    }
    long expiresAt = deduplication.remember(key, msg, entryBytes, nowMillis);
    env.changes().deduplicationRemembered(store, key, msg, expiresAt);
    return QueueTypeRules.sent(msg, m);
  }

  private void checkDeduplicationPossible(NewMessage m) {
    if (m.deduplicationId() == null && !store.attributes().contentBasedDeduplication()) {
      throw SqsException.invalidParameter("The queue should either have ContentBasedDeduplication enabled or"
          + " MessageDeduplicationId provided explicitly");
    }
  }

  @Override
  public long nextSequenceNumber() {
    return ++lastSequenceNumber;
  }

  /** On the way to a FIFO dead-letter queue the deduplication id becomes the MessageId. */
  @Override
  public long lastSequenceNumber() {
    return lastSequenceNumber;
  }

  @Override
  public String deadLetterDeduplicationId(Message from) {
    return from.messageId();
  }

  @Override
  public String redrivenDeduplicationId(Message from) {
    String dedupId = from.deduplicationId();
    return dedupId != null ? dedupId : from.messageId();
  }

  @Override
  public void restoredSequence(long sequenceNumber) {
    lastSequenceNumber = Math.max(lastSequenceNumber, sequenceNumber);
  }

  @Override
  public void resumeSequence(long nowMillis) {
    lastSequenceNumber = Math.max(lastSequenceNumber, SequenceNumbers.firstFor(nowMillis));
  }

  @Override
  public void restoreDeduplication(String key, String messageId, long sequenceNumber, long expiresAtMillis) {
    int bytes = DeduplicationWindow.bytesFor(key);
    store.chargeBookkeeping(bytes);
    deduplication.restore(key, messageId, sequenceNumber, expiresAtMillis, bytes);
    restoredSequence(sequenceNumber);
  }

  @Override
  public void pendingDropped(Message m) {
    deduplication.forgetMessage(m.messageId());
  }

  // ---- receipts and receives ----------------------------------------------------------------

  /**
   * FIFO receipts must be the current ones: deleting with a handle whose visibility ran out, or
   * from an earlier receive, fails (AWS: DeleteMessage). A visibility change with the current
   * handle of a message that is visible again is accepted and has no effect, as on standard queues.
   */
  @Override
  public void checkReceiptCurrent(Message m, ReceiptHandleCodec.Receipt r, String handle, boolean delete) {
    boolean current = r.receiptSequence() == m.receiptSequence();
    if (!current || (delete && m.state() != MessageState.IN_FLIGHT)) {
      throw SqsException.invalidValue(handle, "ReceiptHandle", "The receipt handle has expired.");
    }
  }

  /**
   * A retried receive: the same messages and handles (a handle is a MAC of the message and its
   * receive number, so it comes out the same), with their visibility started again; null when the
   * attempt is unknown or any of its messages changed since.
   */
  @Override
  public List<ReceiveMessage.Message> replay(ReceiveSpec spec, long nowMillis) {
    ReceiveAttempts.Attempt attempt = attempts.find(spec.attemptId(), nowMillis);
    if (attempt == null) {
      return null;
    }
    List<Message> messages = new ArrayList<>(attempt.keys.length);
    for (int i = 0; i < attempt.keys.length; i++) {
      Message m = store.find(attempt.keys[i]);
      if (!attempt.unchanged(i, m)) {
        return null;
      }
      messages.add(m);
    }
    List<ReceiveMessage.Message> views = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      Message m = messages.get(i);
      // Logged like any visibility change: after a crash the message stays hidden as the retry said.
      store.hideUntil(m, nowMillis + spec.visibilitySeconds() * 1000L);
      attempt.visibleAgainUntil(i, m.dueAtMillis());
      views.add(ReceivedMessages.view(m, store.receiptHandle(m), attempt.selection));
    }
    return views;
  }

  @Override
  public void received(ReceiveSpec spec, List<Message> received, long nowMillis) {
    if (spec.attemptId() != null && !received.isEmpty() && spec.visibilitySeconds() > 0) {
      attempts.remember(spec.attemptId(), spec.selection(), received, nowMillis);
    }
  }

  /**
   * A changed queue delay also applies to messages still delayed, keeping their order (AWS: Amazon
   * SQS delay queues; on FIFO queues the per-queue delay is retroactive).
   */
  @Override
  public void delayChanged(long oldDelayMillis, long nowMillis) {
    store.backlog().fifoDelays().changed(oldDelayMillis, nowMillis); // for the rows not in memory
    store.rescheduleDelayed(store.attributes().delaySeconds() * 1000L, nowMillis);
  }

  @Override
  public void forgetAll() {
    deduplication.clear();
    attempts.clear();
  }
}
