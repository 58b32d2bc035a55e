package dev.sluice.model;

import dev.sluice.api.QueueKey;

/**
 * Told of every queue a shard creates or deletes, so that other shards can know which queues exist
 * without asking (a redrive policy's target, before a message is sent on its way there). The
 * engine's implementation is thread-safe; the model only calls it from the owning shard.
 */
public interface QueueDirectory {
  void created(QueueKey queue);

  void deleted(QueueKey queue);
}
