package dev.sluice.engine;

import io.vertx.core.Future;

/**
 * Work for the node holding a shard that the server itself sends there (cluster mode, design page
 * cluster.md, §2.12): a plain record, so that it can travel between nodes, run by the engine of
 * whichever node holds {@link #shard()} ({@link QueueEngine#runPortable}). Its answer is a record,
 * or nothing.
 */
public interface PortableCall<T extends Record> {
  /** The queue's key, whose shard runs the call. */
  dev.sluice.api.QueueKey queue();

  /** Runs on this node, which holds the queue's shard. */
  Future<T> run(QueueEngine engine);
}
