package dev.sluice.model;

/**
 * What every queue of one shard shares: the shard's due-time index, its receipt-handle codec and
 * parking bounds, the server-wide memory budget and queue limit, the route dead letters take to
 * their queue, the directory of queues on every shard, the log of changes for the durable store,
 * the first message key of this run, (paged mode) the store holding what the queues keep out of
 * memory with the window they keep in it, and the slab holding the resident messages' contents with
 * its compactor, which runs from the due-time index (design/tails.md §2.3). Owned by one shard event loop (the budget, the queue
 * limit, the directory and the change log's far side are shared and thread-safe).
 */
public record ShardResources(
    DueTimeIndex index,
    ReceiptHandleCodec handles,
    ParkingLimits parking,
    MemoryBudget budget,
    QueueLimit queueLimit,
    int maxInflightPerQueue,
    DeadLetterRoute deadLetters,
    QueueDirectory directory,
    ChangeLog changes,
    long firstMessageKey,
    BacklogStore backlog,
    HeadWindow window,
    ContentSlab slab,
    SlabCompactor compactor) {

  /** With a compactor for {@code slab} in {@code index}. */
  public ShardResources(DueTimeIndex index, ReceiptHandleCodec handles, ParkingLimits parking, MemoryBudget budget,
      QueueLimit queueLimit, int maxInflightPerQueue, DeadLetterRoute deadLetters, QueueDirectory directory,
      ChangeLog changes, long firstMessageKey, BacklogStore backlog, HeadWindow window, ContentSlab slab) {
    this(index, handles, parking, budget, queueLimit, maxInflightPerQueue, deadLetters, directory, changes,
        firstMessageKey, backlog, window, slab, new SlabCompactor(slab, index));
  }

  /**
   * The first key of a run numbered {@code run} (durable mode counts runs; memory mode is run 0):
   * keys of different runs never meet, so a receipt handle from before a restart can never name a
   * message sent after it, even in a queue that was empty in between. 2^40 keys per queue per run.
   */
  public static long firstKeyOfRun(long run) {
    return (run << 40) + 1;
  }
}
