package dev.sluice.model;

/**
 * What every queue of one shard shares: the shard's due-time index, its receipt-handle codec and
 * parking bounds, the server-wide memory budget, and identity settings, and the route
 * dead letters take to their queue. Owned by one shard event
 * loop (the budget alone is shared, and thread-safe).
 */
public record ShardResources(
    DueTimeIndex index,
    ReceiptHandleCodec handles,
    ParkingLimits parking,
    MemoryBudget budget,
    String accountId,
    String region,
    int maxInflightPerQueue,
    DeadLetterRoute deadLetters,
    QueueDirectory directory) {

  public String arnOf(String queueName) {
    return "arn:aws:sqs:" + region + ":" + accountId + ":" + queueName;
  }
}
