package dev.sluice.model;

import java.util.List;

/**
 * What a shard's queues tell the durable store: every change of a queue or of a
 * message, as it happens, for the write-behind writer to coalesce and persist. In memory mode
 * it is {@link #NONE}. Called on the owning shard's event loop only.
 */
public interface ChangeLog {
  /**
   * True when sends must wait for their commit (durability {@code commit}): a stored message stays
   * {@link MessageState#PENDING} until the engine calls {@link MessageStore#commitPending}.
   */
  boolean holdsSendsUntilCommitted();

  /** A queue was created, or its attributes or tags changed. */
  void queueSaved(QueueState q);

  void queueDeleted(QueueState q);

  /** Every message of the queue is gone at once (PurgeQueue). */
  void queuePurged(QueueState q);

  /**
   * Every message of the queue is gone at once (PurgeQueue): every row with a key below
   * {@code purgedBelowKey}, which may include rows held only by the durable store (paged mode).
   * Rows written later have keys at or above it.
   */
  default void queuePurged(QueueState q, long purgedBelowKey) {
    queuePurged(q);
  }

  /** A message entered the queue (sent, or moved in). */
  void messageStored(MessageStore q, Message m);

  /** A message's delivery state changed: received, or its visibility changed. */
  void messageChanged(MessageStore q, Message m);

  /** A message left the queue: deleted, expired or moved out. */
  void messageDeleted(MessageStore q, Message m);

  /** A FIFO send was recorded for deduplication until {@code expiresAtMillis}. */
  void deduplicationRemembered(MessageStore q, String key, Message m, long expiresAtMillis);

  /**
   * Row {@code rowId} of outbox {@code source} was stored as message {@code messageId}: written in
   * the same commit as the message (see {@link RelayReceipts}).
   */
  void relayReceiptRecorded(QueueState q, String source, long rowId, String messageId);

  /** The receipts of these rows of {@code source} are not needed any more. */
  void relayReceiptsForgotten(QueueState q, String source, List<Long> rowIds);

  /** Nothing is persisted. */
  ChangeLog NONE = new ChangeLog() {
    @Override
    public boolean holdsSendsUntilCommitted() {
      return false;
    }

    @Override
    public void queueSaved(QueueState q) {}

    @Override
    public void queueDeleted(QueueState q) {}

    @Override
    public void queuePurged(QueueState q) {}

    @Override
    public void messageStored(MessageStore q, Message m) {}

    @Override
    public void messageChanged(MessageStore q, Message m) {}

    @Override
    public void messageDeleted(MessageStore q, Message m) {}

    @Override
    public void deduplicationRemembered(MessageStore q, String key, Message m, long expiresAtMillis) {}

    @Override
    public void relayReceiptRecorded(QueueState q, String source, long rowId, String messageId) {}

    @Override
    public void relayReceiptsForgotten(QueueState q, String source, List<Long> rowIds) {}
  };
}
