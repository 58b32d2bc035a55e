package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.DeadLetterRoute;
import dev.sluice.model.Message;
import dev.sluice.model.MessageMoveTask;
import dev.sluice.model.MessageMover;
import dev.sluice.model.QueueArns;
import dev.sluice.model.QueueDirectory;
import dev.sluice.model.QueueState;
import dev.sluice.persistence.ShardFence;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
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
  /**
   * Why a move task fails when another node did not take a batch in time (cluster mode; the batch
   * is back in the dead-letter queue, and a new task takes it on), in the form of SQS's reasons.
   */
  static final String SERVICE_UNAVAILABLE = "AWS.SimpleQueueService.ServiceUnavailable";

  private final ShardRouter router;
  private volatile ShardDispatcher dispatcher;
  /** Every queue on every shard deployed here; written by the owning shards, read by any. */
  private final Set<QueueKey> queues = ConcurrentHashMap.newKeySet();
  /** Cluster mode: the engine, which knows which shards are held here and reaches the others. */
  private volatile QueueEngine engine;
  /**
   * Cluster mode: every queue of the cluster as last read from PostgreSQL (the shard manager reads
   * them every few seconds), for queues on shards held elsewhere.
   */
  private volatile Set<QueueKey> elsewhere = Set.of();

  CrossShard(ShardRouter router) {
    this.router = router;
  }

  /** Set once, after the shards have started and before any request reaches them. */
  void connect(ShardDispatcher dispatcher) {
    this.dispatcher = dispatcher;
  }

  /** Cluster mode: queues may live on other nodes, which {@code engine} reaches. */
  void clustered(QueueEngine engine) {
    this.engine = engine;
  }

  /** Cluster mode: the queues of the whole cluster, as just read. */
  void knownElsewhere(Set<QueueKey> all) {
    this.elsewhere = Set.copyOf(all);
  }

  /** Whether the shard of {@code key} is another node's (never on a single-node server). */
  private boolean remote(QueueKey key) {
    QueueEngine e = engine;
    return e != null && !e.holdsShard(router.shardOf(key));
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
    return key != null && (remote(key) ? elsewhere.contains(key) : queues.contains(key));
  }

  @Override
  public void moveTo(String deadLetterTargetArn, QueueState source, Message m, long nowMillis) {
    QueueKey sourceKey = source.metadata().key();
    String sourceArn = source.metadata().arn();
    QueueKey target = QueueArns.keyOf(deadLetterTargetArn);
    if (target != null && remote(target)) {
      moveToNode(target, source, m, sourceArn, nowMillis);
      return;
    }
    Future<Boolean> arrived = target == null
        ? Future.succeededFuture(false)
        : dispatcher.call(router.shardOf(target), (s, reply) -> {
            QueueState dlq = s.find(target);
            if (dlq != null) {
              dlq.moves().adoptDeadLetter(m, sourceArn, s.now());
            }
            reply.succeed(dlq != null);
          });
    arrived.onComplete((ok, failure) -> {
      if (failure != null || !ok) {
        // The dead-letter queue went away on the way: the message goes back to its source queue.
        dispatcher.call(router.shardOf(sourceKey), (s, reply) -> {
          source.moves().takeBackOrRelease(m, s.now());
          reply.succeed(null);
        });
      }
    });
  }

  /**
   * A dead letter for a queue another node holds (design page cluster.md, §2.13): its content goes
   * there, and that node writes the new row and the delete of this one, fenced by this shard's
   * epoch too. Until it answers, the message is neither here nor there in memory; its row is still
   * this queue's. Refused (the queue is gone, or either shard moved on), it comes back here. An
   * answer that never comes (the other node failed) brings it back too: if the other node's write
   * had committed, it is then in both queues, delivered at least once.
   */
  private void moveToNode(QueueKey target, QueueState source, Message m, String sourceArn, long nowMillis) {
    QueueKey sourceKey = source.metadata().key();
    int sourceShard = router.shardOf(sourceKey);
    ShardFence fence = engine.fenceOf(sourceShard);
    if (fence == null) {
      source.moves().takeBackOrRelease(m, nowMillis);
      return;
    }
    engine.onQueueShard(new AdoptDeadLetter(target, MessageTransfer.of(m), sourceArn, fence.shard(0),
            fence.epoch(0)))
        .onComplete((adopted, failure) -> dispatcher.call(sourceShard, (s, reply) -> {
          if (failure == null) {
            source.moves().movedAway(m);
          } else {
            source.moves().takeBackOrRelease(m, s.now());
          }
          reply.succeed(null);
        }));
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
    int sourceShard = router.shardOf(sourceKey);
    List<Future<List<Message>>> deliveries = new ArrayList<>();
    List<QueueKey> destinations = new ArrayList<>(byDestination.keySet());
    // Decided once: a batch sent to another node leaves this node's memory, one adopted here does not.
    Set<QueueKey> sentAway = new HashSet<>();
    byDestination.forEach((destination, messages) -> deliveries.add(remote(destination) && sentAway.add(destination)
        ? deliverToNode(destination, messages, sourceShard)
        : dispatcher.call(router.shardOf(destination), (s, reply) -> {
          QueueState q = s.find(destination);
          if (q == null) {
            reply.succeed(messages);
            return;
          }
          for (Message m : messages) {
            q.moves().adoptRedriven(m, s.now());
          }
          reply.succeed(List.of());
        })));
    Future.join(deliveries).onComplete(done -> {
      List<Message> undelivered = new ArrayList<>(nowhere);
      List<Message> movedAway = new ArrayList<>();
      String failure = null;
      for (int i = 0; i < deliveries.size(); i++) {
        Future<List<Message>> d = deliveries.get(i);
        List<Message> sent = byDestination.get(destinations.get(i));
        // A delivery that failed outright delivered nothing: adopting validates nothing and cannot
        // fail part-way, and another node's adoption is one fenced write.
        undelivered.addAll(d.succeeded() ? d.result() : sent);
        if (sentAway.contains(destinations.get(i))) {
          if (d.failed()) {
            failure = SERVICE_UNAVAILABLE;
          } else if (d.result().isEmpty()) {
            movedAway.addAll(sent);
          }
        }
      }
      int arrived = batch.size() - undelivered.size();
      String reason = failure != null ? failure : undelivered.isEmpty() ? null : NON_EXISTENT_QUEUE;
      dispatcher.call(sourceShard, (s, reply) -> {
        QueueState source = s.find(sourceKey);
        if (source != null) {
          movedAway.forEach(source.moves()::movedAway);
        }
        task.delivered(arrived, undelivered, reason, s.now());
        reply.succeed(null);
      });
    });
  }

  /**
   * A move task's batch for a queue another node holds: its content goes there, written there with
   * the deletes of these rows, fenced by the source shard's epoch too (as {@link #moveToNode} sends
   * a dead letter). Answers the messages it did not take: all of them when the queue is gone.
   */
  private Future<List<Message>> deliverToNode(QueueKey destination, List<Message> messages, int sourceShard) {
    ShardFence fence = engine.fenceOf(sourceShard);
    if (fence == null) {
      return Future.failedFuture(new ShardNotHere(sourceShard));
    }
    List<MessageTransfer> transfers = messages.stream().map(MessageTransfer::of).toList();
    return engine.onQueueShard(new AdoptRedriven(destination, transfers, fence.shard(0), fence.epoch(0)))
        .map(adopted -> adopted.adopted() ? List.<Message>of() : messages);
  }
}
