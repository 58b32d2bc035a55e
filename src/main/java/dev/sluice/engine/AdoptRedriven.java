package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.List;

/**
 * A move task's batch for a destination queue on this node from a dead-letter queue on another
 * (cluster mode; design page cluster.md, §2.13): each message redriven here as a local move task's
 * would be, answered once their write (the new rows and the deletes of their origins) has
 * committed, fenced by this shard's lease and by the source shard's at {@code sourceEpoch}: if the
 * source moved meanwhile, nothing is written, and its new owner still has the messages. A queue
 * that is gone adopts nothing and answers so; the source takes the batch back.
 */
public record AdoptRedriven(QueueKey queue, List<MessageTransfer> messages, int sourceShard, long sourceEpoch)
    implements PortableCall<AdoptRedriven.Adopted> {

  /** The answer: whether the messages are the queue's now (false: it is gone). */
  public record Adopted(boolean adopted) {}

  @Override
  public Future<Adopted> run(QueueEngine engine) {
    return engine.onShard(queue, (s, reply) -> {
      QueueState q = s.find(queue);
      if (q == null) {
        reply.succeed(new Adopted(false));
        return;
      }
      s.alsoFencedBy(sourceShard, sourceEpoch);
      for (MessageTransfer m : messages) {
        q.moves().adoptTransferredRedriven(m.content(), m.originQueueId(), m.originKey(), s.now());
      }
      s.commitChanges().map(new Adopted(true)).onComplete(reply);
    });
  }
}
