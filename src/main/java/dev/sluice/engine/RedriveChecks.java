package dev.sluice.engine;

import dev.sluice.model.QueueArns;
import dev.sluice.api.SqsException;
import dev.sluice.model.QueueState;
import dev.sluice.model.RedrivePolicy;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;

/**
 * What redrive needs to know about other queues, which may live on other shards: whether a
 * RedrivePolicy's target exists and lets the source in (the SQS dead-letter queues guide), and which queues name
 * a queue as their dead-letter queue (ListDeadLetterSourceQueues and StartMessageMoveTask in the AWS API
 * reference). Stateless.
 */
final class RedriveChecks {
  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final QueueArns arns;

  RedriveChecks(ShardDispatcher dispatcher, ShardRouter router, QueueArns arns) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.arns = arns;
  }

  /**
   * Checks a RedrivePolicy being set on {@code sourceName} against its target: the target exists and
   * its RedriveAllowPolicy admits the source. A queue may name itself, as AWS accepts. Succeeds at once when
   * the attributes set no policy (or remove it).
   */
  Future<Void> checkRedrivePolicy(String sourceName, Map<String, String> attributes) {
    String value = attributes == null ? null : attributes.get(RedrivePolicy.NAME);
    if (value == null || value.isEmpty()) {
      return Future.succeededFuture();
    }
    RedrivePolicy policy = RedrivePolicy.parse(value, sourceName.endsWith(".fifo"));
    String target = arns.nameOf(policy.deadLetterTargetArn());
    if (target == null) {
      throw targetMissing(value);
    }
    String sourceArn = arns.arnOf(sourceName);
    return dispatcher.call(router.shardOf(target), (s, reply) -> {
      QueueState dlq = s.registry().find(target);
      if (dlq == null) {
        throw targetMissing(value);
      }
      if (!dlq.attributes().allowsDeadLetterSource(sourceArn)) {
        throw SqsException.invalidValue(value, RedrivePolicy.NAME,
            "Queue " + policy.deadLetterTargetArn() + " does not allow " + sourceArn
                + " to use it as a dead-letter queue (RedriveAllowPolicy).");
      }
      reply.succeed(null);
    });
  }

  private static SqsException targetMissing(String value) {
    return SqsException.invalidValue(value, RedrivePolicy.NAME, "Dead-letter target does not exist.");
  }

  /** Names of every queue whose RedrivePolicy targets {@code deadLetterQueueArn}, unsorted. */
  Future<List<String>> sourcesOf(String deadLetterQueueArn) {
    return dispatcher.onEveryShard(s -> s.registry().deadLetterSourcesOf(deadLetterQueueArn))
        .map(perShard -> perShard.stream().flatMap(List::stream).toList());
  }
}
