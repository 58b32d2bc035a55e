package dev.sluice.model;

/** Where a message is in its life: the state decides which structure of its queue holds it. */
public enum MessageState {
  /**
   * Sent, but its write to the durable store has not committed yet (durability {@code commit}):
   * not receivable and not counted; it takes its place once committed.
   */
  PENDING,
  /** Waiting out a delay; in the due-time index until it becomes visible. */
  DELAYED,
  /** Visible: receivable now. */
  READY,
  /** Received and hidden until its visibility timeout; in the due-time index. */
  IN_FLIGHT,
  /**
   * Its visibility timeout ran out without a delete, and its queue's redelivery backoff keeps it
   * hidden a while longer ({@link RedeliveryBackoff}); in the due-time index until visible again.
   * Counted as delayed; a FIFO message keeps its group locked meanwhile.
   */
  BACKOFF,
  /**
   * Paged mode: its row is held only by the durable store (beyond the queue's head window), counted
   * by its queue's backlog but in none of its structures; read back in delivery order when due.
   */
  PAGED_OUT,
  /** Deleted, expired, purged or moved: no longer in any structure of its queue. */
  GONE
}
