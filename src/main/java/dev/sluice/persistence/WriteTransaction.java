package dev.sluice.persistence;

import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A batch taken from the writer's {@link WriterInbox}, from when it is built until it has
 * committed: the submissions it took, their changes as one {@link ChangeBatch}, the fence it is
 * written under, the lane it is written in, and which batches it may not be written beside. Apart
 * from {@link PersistenceVerticle}, which decides when each batch is written and what its outcome
 * does.
 */
final class WriteTransaction {
  /**
   * Changes submitted together, and who waits for their commit. {@code shards}: in cluster mode,
   * the shards (with the epochs of their leases) the changes are written for; null for a
   * single-node server, whose writes carry the database's epoch.
   */
  record Submission(ShardFence shards, Consumer<ChangeBatch> changes, int count, long bytes,
      Promise<Void> committed, long atNanos) {}

  final ChangeBatch batch = new ChangeBatch();
  final List<Submission> taken = new ArrayList<>();
  /** The union of the submissions' shard fences, by shard; empty: the database's fence. */
  final Map<Integer, Long> shardEpochs = new TreeMap<>();
  Set<MessageRef> messages = Set.of();
  boolean alone;
  long startedNanos;
  /** The writer lane it is written in: batches written at once have different ones. */
  int lane;

  void add(Submission s) {
    s.changes().accept(batch);
    taken.add(s);
    if (s.shards() != null) {
      for (int i = 0; i < s.shards().size(); i++) {
        shardEpochs.put(s.shards().shard(i), s.shards().epoch(i));
      }
    }
  }

  /** Once everything is taken. */
  WriteTransaction sealed() {
    alone = batch.changesQueues();
    messages = batch.messageRefs();
    return this;
  }

  /** What PostgreSQL checks before it writes the batch. */
  Fence fence(DatabaseFence database) {
    return shardEpochs.isEmpty() ? database : ShardFence.of(shardEpochs);
  }

  /** Whether {@code s} carries another epoch than this batch for one of its shards. */
  boolean epochMovedOn(Submission s) {
    if (s.shards() == null) {
      return false;
    }
    for (int i = 0; i < s.shards().size(); i++) {
      Long held = shardEpochs.get(s.shards().shard(i));
      if (held != null && held != s.shards().epoch(i)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether this batch must wait for the transactions being written: when either side changes
   * queues (written alone), or when both write the same message ({@link ChangeBatch#touchesAny}).
   */
  boolean mustWaitFor(List<WriteTransaction> writing) {
    if (writing.isEmpty()) {
      return false;
    }
    if (alone) {
      return true;
    }
    for (WriteTransaction tx : writing) {
      if (tx.alone || batch.touchesAny(tx.messages)) {
        return true;
      }
    }
    return false;
  }
}
