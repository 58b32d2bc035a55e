package dev.sluice.model;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import java.util.List;

/**
 * What one queue type decides on its own: which sends it accepts and how it stores them (FIFO:
 * deduplicated within a window, numbered in sequence), which receipts still count, and how a
 * retried receive is answered. {@link StandardRules} and {@link FifoRules}; what each keeps is owned
 * by the {@link QueueState} that uses it, on the shard event loop that owns the queue.
 */
interface QueueTypeRules {
  /** Whole-request rules of a batch that depend on the queue type, checked before any entry is sent. */
  void checkBatch(List<NewMessage> messages);

  /**
   * Applies the rules of the queue type to a message that passed the common checks, and stores it
   * (or recognises it as a duplicate). Its charge is its packed content's record (see
   * {@link ArrivingMessages#heldBytes}), not its size as SQS counts it.
   */
  SendMessage.Response send(NewMessage m, boolean batchEntry, long nowMillis);

  /** The sequence number of a message entering the queue; 0 (none) on standard queues. */
  long nextSequenceNumber();

  /** The last sequence number given out; 0 where none are (standard queues). */
  long lastSequenceNumber();

  /** The deduplication id a dead letter keeps in this queue. */
  String deadLetterDeduplicationId(Message from);

  /** The deduplication id of the new message a move task makes of {@code from} in this queue. */
  String redrivenDeduplicationId(Message from);

  /** A message came back from the durable store: numbers continue after the highest restored. */
  void restoredSequence(long sequenceNumber);

  /**
   * After a restart, numbers continue from the later of the highest restored one and the current
   * time's: a purged or emptied queue restores none, and must still never hand one out twice.
   */
  void resumeSequence(long nowMillis);

  /** Puts back a deduplication entry from the durable store (start-up, in expiry order). */
  void restoreDeduplication(String key, String messageId, long sequenceNumber, long expiresAtMillis);

  /** A send was never acknowledged (its write failed for good): nothing may remember it. */
  void pendingDropped(Message m);

  /**
   * May this receipt delete ({@code delete}) or change the visibility of this message? Throws the
   * queue type's error if not.
   */
  void checkReceiptCurrent(Message m, ReceiptHandleCodec.Receipt r, String handle, boolean delete);

  /**
   * The answer to a receive retried with a ReceiveRequestAttemptId the queue still honours, or null
   * when it is to be received afresh.
   */
  List<ReceiveMessage.Message> replay(ReceiveSpec spec, long nowMillis);

  /** What a receive returned (possibly nothing), for its retries. */
  void received(ReceiveSpec spec, List<Message> received, long nowMillis);

  /** The queue's DelaySeconds changed at {@code nowMillis}, from {@code oldDelayMillis}. */
  void delayChanged(long oldDelayMillis, long nowMillis);

  /** PurgeQueue, or the queue is deleted: every history the type keeps goes. */
  void forgetAll();

  /** The answer to an accepted send. */
  static SendMessage.Response sent(Message msg, NewMessage m) {
    return new SendMessage.Response(
        // From the request, not the record: the message may have left memory already (paged mode).
        msg.messageId(), msg.md5OfBody(), Digests.md5OfAttributes(m.attributes()),
        Digests.md5OfAttributes(m.systemAttributes()),
        SequenceNumbers.format(msg.sequenceNumber));
  }
}
