package dev.sluice.model;

/**
 * What every queue of one shard shares: the shard's due-time index, its receipt-handle codec and
 * parking bounds, the server-wide memory budget, the queue ARNs of this account and region, the
 * route dead letters take to their queue, and the directory of queues on every shard. Owned by one
 * shard event loop (the budget and the directory are shared and thread-safe).
 */
public record ShardResources(
    DueTimeIndex index,
    ReceiptHandleCodec handles,
    ParkingLimits parking,
    MemoryBudget budget,
    QueueArns arns,
    int maxInflightPerQueue,
    DeadLetterRoute deadLetters,
    QueueDirectory directory) {}
