package dev.sluice.model;

import dev.sluice.api.Limits;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.List;

/**
 * Keeps no state of its own; used by one standard queue on the shard event loop that owns it.
 *
 * <p>The rules of a standard queue (at-least-once, best-effort order): a message may be delayed on
 * its own, has no deduplication id and no sequence number, any handle of a live message counts, and
 * a receive is never replayed.
 */
final class StandardRules implements QueueTypeRules {
  private final MessageStore store;

  StandardRules(MessageStore store) {
    this.store = store;
  }

  @Override
  public void checkBatch(List<NewMessage> messages) {}

  @Override
  public SendMessage.Response send(NewMessage m, boolean batchEntry, long nowMillis) {
    if (m.deduplicationId() != null) {
      // AWS's own wording, grammar slip included: the same reason it gives for a per-message
      // DelaySeconds on a FIFO queue (FifoRules), seen in answers from SQS quoted in public
      // projects' logs and in moto's SQS tests (test_sqs.py, MessageGroupId on a standard queue).
      throw SqsException.invalidValue(
          m.deduplicationId(), "MessageDeduplicationId",
          "The request include parameter that is not valid for this queue type.");
    }
    Integer delay = m.delaySeconds();
    if (delay != null && (delay < 0 || delay > Limits.DELAY_SECONDS_MAX)) {
      throw SqsException.invalidValue(delay, "DelaySeconds", "DelaySeconds must be >= 0 and <= 900.");
    }
    // An explicit 0 overrides the queue's delay too (AWS: SendMessage, DelaySeconds).
    int delaySeconds = delay == null ? store.attributes().delaySeconds() : delay;
    return QueueTypeRules.sent(store.store(m, delaySeconds, null, 0, nowMillis), m);
  }

  @Override
  public long nextSequenceNumber() {
    return 0;
  }

  @Override
  public long lastSequenceNumber() {
    return 0;
  }

  @Override
  public String deadLetterDeduplicationId(Message from) {
    return from.deduplicationId();
  }

  @Override
  public String redrivenDeduplicationId(Message from) {
    return null;
  }

  @Override
  public void restoredSequence(long sequenceNumber) {}

  @Override
  public void resumeSequence(long nowMillis) {}

  /** Standard queues keep no deduplication history. */
  @Override
  public void restoreDeduplication(String key, String messageId, long sequenceNumber, long expiresAtMillis) {}

  @Override
  public void pendingDropped(Message m) {}

  /** Any handle of a live message counts, even from an earlier receive (AWS: DeleteMessage). */
  @Override
  public void checkReceiptCurrent(Message m, ReceiptHandleCodec.Receipt r, String handle, boolean delete) {}

  @Override
  public List<ReceiveMessage.Message> replay(ReceiveSpec spec, long nowMillis) {
    return null;
  }

  @Override
  public void received(ReceiveSpec spec, List<Message> received, long nowMillis) {}

  /** A changed queue delay is not retroactive on a standard queue (AWS: Amazon SQS delay queues). */
  @Override
  public void delayChanged(long oldDelayMillis, long nowMillis) {}

  @Override
  public void forgetAll() {}
}
