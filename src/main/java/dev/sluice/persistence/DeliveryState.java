package dev.sluice.persistence;

/**
 * What changes while a message lives: when it is next visible (0 = now), how often it was
 * received, when first, and the number of its latest receipt (so receipt handles survive a
 * restart), and whether it waits out its queue's redelivery backoff until {@code visibleAt} (V12).
 */
public record DeliveryState(long queueId, long messageKey, long visibleAt, int receiveCount, long firstReceiveAt,
    int receiptSequence, boolean inBackoff) {

  /** A state not in backoff. */
  public DeliveryState(long queueId, long messageKey, long visibleAt, int receiveCount, long firstReceiveAt,
      int receiptSequence) {
    this(queueId, messageKey, visibleAt, receiveCount, firstReceiveAt, receiptSequence, false);
  }
}
