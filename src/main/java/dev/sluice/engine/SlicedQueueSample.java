package dev.sluice.engine;

import dev.sluice.model.QueueState;
import io.vertx.core.Completable;
import java.util.ArrayList;
import java.util.List;

/**
 * One reading of every queue of a shard, spread over event-loop turns (design/console.md §2.4):
 * the shard's queues are listed once, then at most {@code perTurn} of them are read per turn, each
 * slice a shard call of its own run once the loop has served its sockets and queued tasks in between
 * ({@link Shard#afterIo}). Reading them all in one turn, as {@link Shard#sample} does for the
 * metrics, puts work proportional to the queue count into a single turn on every tick: at 50,000
 * queues, a stall that requests waiting behind it would see in their tails (design/tails.md).
 *
 * <p>A queue deleted between slices is skipped; one made meanwhile waits for the next reading. Each
 * slice reads at its own time. A slice that finds its shard handed over fails the whole reading, as
 * any call does then: the shard has nothing more to say here.
 */
final class SlicedQueueSample implements ShardCall<List<QueueSample>> {
  private final List<QueueState> queues;
  private final int perTurn;
  private final List<QueueSample> samples;
  /** The first queue of the next slice. */
  private int next;

  SlicedQueueSample(List<QueueState> queues, int perTurn) {
    if (perTurn < 1) {
      throw new IllegalArgumentException("perTurn must be at least 1: " + perTurn);
    }
    this.queues = queues;
    this.perTurn = perTurn;
    this.samples = new ArrayList<>(queues.size());
  }

  /** Reads one slice; queues the next as a later shard call, or answers once none is left. */
  @Override
  public void run(Shard shard, Completable<List<QueueSample>> reply) {
    long now = shard.now();
    int end = Math.min(queues.size(), next + perTurn);
    for (; next < end; next++) {
      QueueState q = queues.get(next);
      if (!q.closed()) {
        samples.add(QueueSample.of(q, now));
      }
    }
    if (next < queues.size()) {
      shard.afterIo(() -> shard.run(this, reply));
    } else {
      reply.succeed(samples);
    }
  }
}
