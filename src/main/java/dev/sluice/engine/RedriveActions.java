package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.CancelMessageMoveTask;
import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.ListDeadLetterSourceQueues;
import dev.sluice.api.ListMessageMoveTasks;
import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import dev.sluice.api.StartMessageMoveTask;
import dev.sluice.model.MessageMoveTask;
import dev.sluice.model.QueueArns;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.Function;

/**
 * Dead-letter queue administration: ListDeadLetterSourceQueues (its page in the AWS API reference)
 * and the message move tasks that redrive a dead-letter queue (AWS API reference:
 * StartMessageMoveTask). A task runs on the shard of its dead-letter queue; its handle names the
 * task and that queue. The queues a task names are of the caller's account and region: an ARN of
 * another names none, as a regional endpoint of AWS sees none (ResourceNotFoundException, as AWS
 * answers a task handle naming another account's queue: LocalStack's AWS-validated snapshot
 * tests/aws/services/sqs/test_sqs_move_task.snapshot.json, localstack/localstack).
 */
public final class RedriveActions {
  static final int MAX_MESSAGES_PER_SECOND = 500;
  static final int LIST_TASKS_MAX_RESULTS = 10;

  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final RedriveChecks checks;
  private final CrossShard crossShard;

  private final QueueAccess access;
  /**
   * Cluster mode: a check of a queue a move task sends to, made on whichever node holds it
   * ({@link QueueEngine#onQueueShard}); it answers null on a single-node server, which checks on
   * its own shards.
   */
  private final Function<CheckMoveTarget, Future<CheckMoveTarget.Checked>> elsewhere;

  RedriveActions(ShardDispatcher dispatcher, ShardRouter router, RedriveChecks checks, CrossShard crossShard,
      QueueAccess access, Function<CheckMoveTarget, Future<CheckMoveTarget.Checked>> elsewhere) {
    this.access = access;
    this.elsewhere = elsewhere;
    this.dispatcher = dispatcher;
    this.router = router;
    this.checks = checks;
    this.crossShard = crossShard;
  }

  /** The sources of a dead-letter queue: queues of its own account and region, listed by their URLs. */
  public Future<ListDeadLetterSourceQueues.Response> listDeadLetterSourceQueues(
      Caller c, ListDeadLetterSourceQueues.Request r) {
    Integer max = r.maxResults();
    QueueListing.checkMaxResults(max);
    QueueKey dlq = QueueUrls.keyOf(c.accountRegion(), r.queueUrl());
    String baseUrl = c.baseUrl();
    Permit permit = access.permit(c, "ListDeadLetterSourceQueues");
    return permit.answered(dispatcher.<QueueKey>call(router.shardOf(dlq),
            (s, reply) -> reply.succeed(s.queue(dlq, permit).metadata().key())))
        .compose(checks::sourcesOf)
        .map(names -> {
          QueueListing.Page page = QueueListing.page(names, r.nextToken(), max);
          return new ListDeadLetterSourceQueues.Response(page.names().stream()
              .map(n -> QueueUrls.urlOf(baseUrl, dlq.accountRegion().queue(n))).toList(), page.nextToken());
        });
  }

  public Future<StartMessageMoveTask.Response> startMessageMoveTask(Caller c, StartMessageMoveTask.Request r) {
    QueueKey source = existingKey(c, r.sourceArn(), "SourceArn");
    QueueKey destination = r.destinationArn() == null ? null : existingKey(c, r.destinationArn(), "DestinationArn");
    Integer rate = r.maxNumberOfMessagesPerSecond();
    if (rate != null && (rate < 1 || rate > MAX_MESSAGES_PER_SECOND)) {
      throw SqsException.invalidValue(rate, "MaxNumberOfMessagesPerSecond",
          "Value must be between 1 and " + MAX_MESSAGES_PER_SECOND + ".");
    }
    if (destination != null && destination.name().endsWith(".fifo") != source.name().endsWith(".fifo")) {
      throw SqsException.invalidValue(r.destinationArn(), "DestinationArn",
          "The destination queue must be of the same type as the source queue.");
    }
    // Both ends are asked of the caller, as AWS asks them: moving receives and deletes the source's
    // messages and sends them on, to the destination or back to each message's own source queue
    // (AWS API reference: StartMessageMoveTask).
    Permit start = access.permit(c, "StartMessageMoveTask");
    Permit receive = access.permit(c, "ReceiveMessage");
    Permit delete = access.permit(c, "DeleteMessage");
    Permit send = access.permit(c, "SendMessage");
    Future<Void> destinationExists = destination == null
        ? Future.succeededFuture()
        : sendable(c, destination, "DestinationArn", send);
    Future<QueueState> sourceExists = start.answered(receive.answered(delete.answered(dispatcher.call(
        router.shardOf(source), (s, reply) -> reply.succeed(existing(s, source, "SourceArn", start, receive, delete))))));
    String sourceArn = QueueArns.arnOf(source);
    return sourceExists
        .compose(v -> checks.sourcesOf(source))
        .compose(sources -> {
          if (sources.isEmpty()) {
            throw SqsException.invalidParameter("Source queue must be configured as a Dead Letter Queue.");
          }
          if (destination != null) {
            return destinationExists.mapEmpty();
          }
          List<Future<Void>> sendable = sources.stream().map(n -> source.accountRegion().queue(n))
              .map(k -> sendable(c, k, null, send)).toList();
          return Future.all(sendable).mapEmpty();
        })
        .compose(v -> start.answered(dispatcher.call(router.shardOf(source), (s, reply) -> {
          // Checked again here: the queue may have gone while the other shards were asked.
          QueueState q = existing(s, source, "SourceArn", start);
          MessageMoveTask task = q.startMoveTask(r.destinationArn(), rate, crossShard, s.now());
          reply.succeed(new StartMessageMoveTask.Response(TaskHandles.encode(task.taskId(), sourceArn)));
        })));
  }

  /**
   * Whether the caller may send to {@code key}, which a move task would send to; when it is the
   * destination ({@code parameter} names it), it must exist too. Asked on the queue's shard,
   * wherever it is held.
   */
  private Future<Void> sendable(Caller c, QueueKey key, String parameter, Permit send) {
    Future<CheckMoveTarget.Checked> clustered = elsewhere.apply(CheckMoveTarget.of(c, key, parameter));
    if (clustered != null) {
      return clustered.mapEmpty();
    }
    return send.answered(dispatcher.call(router.shardOf(key), (s, reply) -> {
      sendable(s, key, parameter, send);
      reply.succeed(null);
    }));
  }

  /** On the shard of {@code key}: {@link #sendable(Caller, QueueKey, String, Permit)}'s check; throws its error. */
  static void sendable(Shard s, QueueKey key, String parameter, Permit send) {
    if (parameter == null) {
      send.check(key, s.find(key));
    } else {
      existing(s, key, parameter, send);
    }
  }

  public Future<ListMessageMoveTasks.Response> listMessageMoveTasks(Caller c, ListMessageMoveTasks.Request r) {
    QueueKey source = existingKey(c, r.sourceArn(), "SourceArn");
    Integer max = r.maxResults();
    if (max != null && (max < 1 || max > LIST_TASKS_MAX_RESULTS)) {
      throw SqsException.invalidValue(max, "MaxResults", "Value must be between 1 and 10.");
    }
    int limit = max == null ? 1 : max;
    Permit permit = access.permit(c, "ListMessageMoveTasks");
    return permit.answered(dispatcher.call(router.shardOf(source), (s, reply) -> {
      QueueState q = existing(s, source, "SourceArn", permit);
      List<ListMessageMoveTasks.Result> results =
          q.moveTasks().stream().limit(limit).map(RedriveActions::result).toList();
      reply.succeed(new ListMessageMoveTasks.Response(results));
    }));
  }

  private static ListMessageMoveTasks.Result result(MessageMoveTask t) {
    boolean running = t.status() == MessageMoveTask.Status.RUNNING;
    return new ListMessageMoveTasks.Result(
        running ? TaskHandles.encode(t.taskId(), t.sourceArn()) : null,
        t.status().name(),
        t.sourceArn(),
        t.destinationArn(),
        t.maxNumberOfMessagesPerSecond(),
        t.approximateNumberOfMessagesMoved(),
        t.approximateNumberOfMessagesToMove(),
        t.failureReason(),
        t.startedAtMillis());
  }

  public Future<CancelMessageMoveTask.Response> cancelMessageMoveTask(Caller c, CancelMessageMoveTask.Request r) {
    if (r.taskHandle() == null || r.taskHandle().isEmpty()) {
      throw SqsException.missingParameter("TaskHandle");
    }
    TaskHandles.Decoded handle = TaskHandles.decode(r.taskHandle());
    QueueKey source = keyIn(c.accountRegion(), handle.sourceArn());
    if (source == null) {
      throw notFound("SourceArn");
    }
    Permit permit = access.permit(c, "CancelMessageMoveTask");
    return permit.answered(dispatcher.call(router.shardOf(source), (s, reply) -> {
      QueueState q = existing(s, source, "SourceArn", permit);
      MessageMoveTask task = q.moveTasks().stream()
          .filter(t -> t.taskId().equals(handle.taskId()))
          .findFirst()
          .orElseThrow(() -> new SqsException(ErrorCode.RESOURCE_NOT_FOUND, "Task does not exist."));
      if (task.status() != MessageMoveTask.Status.RUNNING) {
        throw SqsException.invalidParameter("Only a task with status RUNNING can be cancelled.");
      }
      reply.succeed(new CancelMessageMoveTask.Response(task.cancel()));
    }));
  }

  /**
   * The queue an ARN parameter names; ResourceNotFoundException when it names no queue of the
   * caller's account and region.
   */
  private static QueueKey existingKey(Caller c, String arn, String parameter) {
    if (arn == null || arn.isEmpty()) {
      throw SqsException.missingParameter(parameter);
    }
    QueueKey key = keyIn(c.accountRegion(), arn);
    if (key == null) {
      throw notFound(parameter);
    }
    return key;
  }

  /** The queue of {@code place} an ARN names, or null when it names none there. */
  static QueueKey keyIn(AccountRegion place, String arn) {
    QueueKey key = QueueArns.keyOf(arn);
    return key != null && key.isIn(place) ? key : null;
  }

  /**
   * On the queue's shard: the queue, once every one of {@code permits} lets the caller touch it, or
   * ResourceNotFoundException naming the ARN parameter.
   */
  private static QueueState existing(Shard s, QueueKey key, String parameter, Permit... permits) {
    QueueState q = s.find(key);
    for (Permit permit : permits) {
      permit.check(key, q);
    }
    if (q == null) {
      throw notFound(parameter);
    }
    return q;
  }

  private static SqsException notFound(String parameter) {
    return new SqsException(
        ErrorCode.RESOURCE_NOT_FOUND,
        "The resource that you specified for the " + parameter + " parameter doesn't exist.");
  }
}
