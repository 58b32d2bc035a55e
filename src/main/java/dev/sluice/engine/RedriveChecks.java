package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import dev.sluice.model.QueueArns;
import dev.sluice.model.QueueRegistry;
import dev.sluice.model.QueueState;
import dev.sluice.model.RedrivePolicy;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What redrive needs to know about other queues, which may live on other shards: whether a
 * RedrivePolicy's target is in its source's account and region, exists and lets the source in (the
 * SQS dead-letter queues guide), and which queues name a queue as their dead-letter queue
 * (ListDeadLetterSourceQueues and StartMessageMoveTask in the AWS API reference). Stateless.
 */
final class RedriveChecks {
  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  /**
   * Cluster mode: checks the target on whichever node holds it ({@link QueueEngine#onQueueShard});
   * answers null for a single-node server.
   */
  private final Function<CheckRedriveTarget, Future<CheckRedriveTarget.Checked>> elsewhere;

  /** The names of the queues of a place whose RedrivePolicy targets an ARN, on every shard. */
  private final BiFunction<AccountRegion, String, Future<List<String>>> sources;

  RedriveChecks(ShardDispatcher dispatcher, ShardRouter router,
      Function<CheckRedriveTarget, Future<CheckRedriveTarget.Checked>> elsewhere,
      BiFunction<AccountRegion, String, Future<List<String>>> sources) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.elsewhere = elsewhere;
    this.sources = sources;
  }

  /**
   * Checks a RedrivePolicy being set on {@code source} against its target: the target is of the
   * source's region and account, exists, and its RedriveAllowPolicy admits the source. A queue may
   * name itself, as AWS accepts. Succeeds at once when the attributes set no policy (or remove it).
   */
  Future<Void> checkRedrivePolicy(QueueKey source, Map<String, String> attributes) {
    String value = attributes == null ? null : attributes.get(RedrivePolicy.NAME);
    if (value == null || value.isEmpty()) {
      return Future.succeededFuture();
    }
    RedrivePolicy policy = RedrivePolicy.parse(value, source.name().endsWith(".fifo"));
    QueueKey target = QueueArns.keyOf(policy.deadLetterTargetArn());
    if (target == null) {
      throw invalid(value, "Dead-letter target does not exist.");
    }
    // A dead-letter queue must be of its source's account and region (AWS SDK for Java developer
    // guide: Using Dead Letter Queues in Amazon SQS). AWS's texts, region first, as Eucalyptus's
    // SQS (eucalyptus/eucalyptus, SimpleQueueService.java) answers them.
    if (!target.region().equals(source.region())) {
      throw invalid(value, "Dead-letter target must be in same region as the source.");
    }
    if (!target.accountId().equals(source.accountId())) {
      throw invalid(value, "Dead-letter target owner should be same as the source.");
    }
    String sourceArn = QueueArns.arnOf(source);
    Future<CheckRedriveTarget.Checked> clustered =
        elsewhere.apply(new CheckRedriveTarget(target, sourceArn, value, policy.deadLetterTargetArn()));
    if (clustered != null) {
      return clustered.mapEmpty();
    }
    return dispatcher.call(router.shardOf(target), (s, reply) -> {
      checkTarget(s, target, sourceArn, value, policy.deadLetterTargetArn());
      reply.succeed(null);
    });
  }

  /** On the target's shard: it exists and its RedriveAllowPolicy lets {@code sourceArn} in. */
  static void checkTarget(Shard s, QueueKey target, String sourceArn, String value, String targetArn) {
    QueueState dlq = s.find(target);
    if (dlq == null) {
      throw invalid(value, "Dead-letter target does not exist.");
    }
    if (!dlq.attributes().allowsDeadLetterSource(sourceArn)) {
      throw SqsException.invalidValue(value, RedrivePolicy.NAME,
          "Queue " + targetArn + " does not allow " + sourceArn + " to use it as a dead-letter queue"
              + " (RedriveAllowPolicy).");
    }
  }

  private static SqsException invalid(String value, String reason) {
    return SqsException.invalidValue(value, RedrivePolicy.NAME, reason);
  }

  /**
   * Names of every queue whose RedrivePolicy targets {@code deadLetterQueue}, unsorted: queues of
   * its own account and region, the only ones that may.
   */
  Future<List<String>> sourcesOf(QueueKey deadLetterQueue) {
    return sources.apply(deadLetterQueue.accountRegion(), QueueArns.arnOf(deadLetterQueue));
  }
}
