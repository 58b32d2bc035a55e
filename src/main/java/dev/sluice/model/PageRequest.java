package dev.sluice.model;

/**
 * One page read a queue asks of its {@link BacklogStore}: the queue's rows with
 * {@code after < position <= upTo} and {@code key >= purgedBelowKey}, in delivery order, at most
 * {@code maxRows} rows and about {@code maxBytes} of content. {@code epoch} ties the answer to the
 * queue's backlog as it was asked: a purge in between makes the answer stale, and it is dropped.
 * Positions are (first visible at, key) on a standard queue and (sequence number, key) on a FIFO
 * queue ({@code fifo}).
 */
public record PageRequest(
    long queueId,
    long epoch,
    DeliveryPosition after,
    DeliveryPosition upTo,
    long purgedBelowKey,
    int maxRows,
    long maxBytes,
    boolean fifo) {}
