package dev.sluice.model;

/**
 * One retention expiry a queue asks of its {@link BacklogStore} (design page §2.10): delete, at most
 * {@code maxRows} of them, the queue's durable-only rows (position after {@code after}, key at or
 * above {@code purgedBelowKey}) whose retention ended, sent at or before {@code cutoffSentAtMillis}
 * (a row that kept an earlier queue's sent time, a dead letter, by its sent time; any other once it
 * is visible too, as its place in delivery order bounds the search); then measure the oldest sent
 * time among the rows left. Positions are as in {@link PageRequest}. {@code epoch} ties the answer
 * to the queue's backlog as it was asked: a purge in between makes it stale.
 */
public record ExpiryRequest(
    long queueId,
    long epoch,
    boolean fifo,
    DeliveryPosition after,
    long cutoffSentAtMillis,
    long purgedBelowKey,
    int maxRows) {}
