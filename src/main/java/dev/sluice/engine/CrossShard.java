package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.DeadLetterRoute;
import dev.sluice.model.Message;
import dev.sluice.model.MessageMoveTask;
import dev.sluice.model.MessageMover;
import dev.sluice.model.QueueArns;
import dev.sluice.model.QueueDirectory;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Moves messages between queues that may live on different shards: dead letters to their
 * dead-letter queue, and move-task batches to their destinations. A message travels as a shard
 * call to the owning shard (the hand-off publishes it safely to that loop); if its queue is gone
 * on arrival it comes back to where it was, so a move never loses a message. Shared by every
 * shard; holds no queue state.
 */
final class CrossShard implements DeadLetterRoute, MessageMover, QueueDirectory {
  /** Why a move task fails when a destination queue is gone (AWS API reference: StartMessageMoveTask). */
  static final String NON_EXISTENT_QUEUE = "AWS.SimpleQueueService.NonExistentQueue";

  private final ShardRouter router;
  private volatile ShardDispatcher dispatcher;
  /** Every queue on every shard; written by the owning shards, read by any. */
  private final Set<QueueKey> queues = ConcurrentHashMap.newKeySet();

  CrossShard(ShardRouter router) {
    this.router = router;
  }

  /** Set once, after the shards have started and before any request reaches them. */
  void connect(ShardDispatcher dispatcher) {
    this.dispatcher = dispatcher;
  }

  @Override
  public void created(QueueKey queue) {
    queues.add(queue);
  }

  @Override
  public void deleted(QueueKey queue) {
    queues.remove(queue);
  }

  @Override
  public boolean exists(String deadLetterTargetArn) {
    QueueKey key = QueueArns.keyOf(deadLetterTargetArn);
    return key != null && queues.contains(key);
  }

  @Override
  public void moveTo(String deadLetterTargetArn, QueueState source, Message m, long nowMillis) {
    QueueKey sourceKey = source.metadata().key();
    String sourceArn = source.metadata().arn();
    QueueKey target = QueueArns.keyOf(deadLetterTargetArn);
    Future<Boolean> arrived = target == null
        ? Future.succeededFuture(false)
        : dispatcher.call(router.shardOf(target), (s, reply) -> {
            QueueState dlq = s.find(target);
            if (dlq != null) {
              dlq.adoptDeadLetter(m, sourceArn, s.now());
            }
            reply.succeed(dlq != null);
          });
    arrived.onComplete((ok, failure) -> {
      if (failure != null || !ok) {
        // The dead-letter queue went away on the way: the message goes back to its source queue.
        dispatcher.call(router.shardOf(sourceKey), (s, reply) -> {
          source.takeBackOrRelease(m, s.now());
          reply.succeed(null);
        });
      }
    });
  }

  @Override
  public void move(MessageMoveTask task, List<Message> batch, long nowMillis) {
    QueueKey sourceKey = QueueArns.keyOf(task.sourceArn());
    Map<QueueKey, List<Message>> byDestination = new LinkedHashMap<>();
    List<Message> nowhere = new ArrayList<>();
    for (Message m : batch) {
      String arn = task.destinationArn() != null ? task.destinationArn() : m.deadLetterSourceArn();
      QueueKey destination = QueueArns.keyOf(arn);
      if (destination == null) {
        nowhere.add(m);
      } else {
        byDestination.computeIfAbsent(destination, k -> new ArrayList<>()).add(m);
      }
    }
    List<Future<List<Message>>> deliveries = new ArrayList<>();
    List<QueueKey> destinations = new ArrayList<>(byDestination.keySet());
    byDestination.forEach((destination, messages) -> deliveries.add(
        dispatcher.call(router.shardOf(destination), (s, reply) -> {
          QueueState q = s.find(destination);
          if (q == null) {
            reply.succeed(messages);
            return;
          }
          for (Message m : messages) {
            q.adoptRedriven(m, s.now());
          }
          reply.succeed(List.of());
        })));
    Future.join(deliveries).onComplete(done -> {
      List<Message> undelivered = new ArrayList<>(nowhere);
      for (int i = 0; i < deliveries.size(); i++) {
        Future<List<Message>> d = deliveries.get(i);
        // A delivery that failed outright delivered nothing: adopting validates nothing and cannot
        // fail part-way.
        undelivered.addAll(d.succeeded() ? d.result() : byDestination.get(destinations.get(i)));
      }
      int arrived = batch.size() - undelivered.size();
      dispatcher.call(router.shardOf(sourceKey), (s, reply) -> {
        task.delivered(arrived, undelivered, undelivered.isEmpty() ? null : NON_EXISTENT_QUEUE, s.now());
        reply.succeed(null);
      });
    });
  }
}
