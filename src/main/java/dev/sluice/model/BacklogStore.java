package dev.sluice.model;

/**
 * What a shard's queues ask of the durable store that holds the part of their backlog not kept in
 * memory (paged mode): pages of rows in delivery order. {@link #NONE} in memory mode and whenever
 * paging is off, where no queue ever asks.
 *
 * <p>Called on the owning shard's event loop only.
 */
public interface BacklogStore {
  /**
   * Reads a page in the background. The answer goes to {@link QueueState#acceptPage} inside a later
   * call on the queue's shard, never from within this call: the queue asks at points where its
   * state is settled, and an answer arriving in the middle of a receive would re-enter it. Every
   * request is answered exactly once (with no rows if the read failed), as the queue runs one
   * backlog read at a time and waits for the answer before the next.
   */
  void readPage(QueueState queue, PageRequest request);

  /**
   * Reads a page at once if this store can (a store in memory, for tests), else null: then the
   * queue asks through {@link #readPage} later. A PostgreSQL store always answers null.
   */
  PageResult readNow(PageRequest request);

  /**
   * Deletes a queue's durable-only rows whose retention ended and measures the oldest left, in the
   * background; answered as {@link #readPage} is, to {@link QueueState#acceptExpiry}, exactly once
   * ({@link ExpiryResult#FAILED} if it failed). Never while a page read of the queue is under way.
   */
  void expire(QueueState queue, ExpiryRequest request);

  /** Memory mode: there is no backlog outside memory, and nothing ever asks for one. */
  BacklogStore NONE = new BacklogStore() {
    @Override
    public void readPage(QueueState queue, PageRequest request) {
      throw new IllegalStateException("memory mode keeps every message resident: no page to read");
    }

    @Override
    public PageResult readNow(PageRequest request) {
      return null;
    }

    @Override
    public void expire(QueueState queue, ExpiryRequest request) {
      throw new IllegalStateException("memory mode keeps every message resident: nothing to expire elsewhere");
    }
  };
}
