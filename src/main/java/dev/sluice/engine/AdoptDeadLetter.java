package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;

/**
 * A dead letter for a queue on this node from a queue on another (design page cluster.md, §2.13):
 * adopted as a local one would be, and answered once its write, the new row and the delete of its
 * origin, has committed, fenced by this shard's lease and by the source shard's at
 * {@code sourceEpoch}: if the source moved meanwhile, nothing is written, and its new owner still
 * has the message. Fails with QueueDoesNotExist when the queue is gone; the source takes it back.
 */
public record AdoptDeadLetter(QueueKey queue, MessageTransfer message, String sourceArn, int sourceShard,
    long sourceEpoch) implements PortableCall<AdoptDeadLetter.Adopted> {

  /** The answer: the message is the queue's now. */
  public record Adopted(boolean adopted) {}

  @Override
  public Future<Adopted> run(QueueEngine engine) {
    return engine.onShard(queue, (s, reply) -> {
      QueueState q = s.find(queue);
      if (q == null) {
        throw SqsException.queueDoesNotExist();
      }
      s.alsoFencedBy(sourceShard, sourceEpoch);
      q.moves().adoptTransferredDeadLetter(message.content(), message.originQueueId(), message.originKey(), sourceArn,
          s.now());
      s.commitChanges().map(new Adopted(true)).onComplete(reply);
    });
  }
}
