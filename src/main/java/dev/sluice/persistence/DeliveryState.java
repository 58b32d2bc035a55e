package dev.sluice.persistence;

/**
 * What changes while a message lives: when it is next visible (0 = now), how often it was
 * received, when first, and the number of its latest receipt (so receipt handles survive a
 * restart).
 */
public record DeliveryState(
    long queueId, long messageKey, long visibleAt, int receiveCount, long firstReceiveAt, int receiptSequence) {}
