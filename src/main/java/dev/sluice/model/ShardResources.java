package dev.sluice.model;

/**
 * What every queue of one shard shares: the shard's due-time index, its receipt-handle codec and
 * parking bounds, the server-wide memory budget, the queue ARNs of this account and region, the
 * route dead letters take to their queue, the directory of queues on every shard, and the log of
 * changes for the durable store. Owned by one shard event loop (the budget, the directory and the
 * change log's far side are shared and thread-safe).
 */
public record ShardResources(
    DueTimeIndex index,
    ReceiptHandleCodec handles,
    ParkingLimits parking,
    MemoryBudget budget,
    QueueArns arns,
    int maxInflightPerQueue,
    DeadLetterRoute deadLetters,
    QueueDirectory directory,
    ChangeLog changes) {}
