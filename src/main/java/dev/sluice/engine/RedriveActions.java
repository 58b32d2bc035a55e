package dev.sluice.engine;

import dev.sluice.model.QueueArns;
import dev.sluice.api.CancelMessageMoveTask;
import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.ListDeadLetterSourceQueues;
import dev.sluice.api.ListMessageMoveTasks;
import dev.sluice.api.SqsException;
import dev.sluice.api.StartMessageMoveTask;
import dev.sluice.model.MessageMoveTask;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.List;

/**
 * Dead-letter queue administration: ListDeadLetterSourceQueues (its page in the AWS API reference) and the
 * message move tasks that redrive a dead-letter queue (AWS API reference: StartMessageMoveTask). A task runs on
 * the shard of its
 * dead-letter queue; its handle names the task and that queue.
 */
public final class RedriveActions {
  static final int MAX_MESSAGES_PER_SECOND = 500;
  static final int LIST_TASKS_MAX_RESULTS = 10;

  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final QueueUrls urls;
  private final QueueArns arns;
  private final RedriveChecks checks;
  private final CrossShard crossShard;

  RedriveActions(
      ShardDispatcher dispatcher, ShardRouter router, QueueUrls urls, QueueArns arns, RedriveChecks checks,
      CrossShard crossShard) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.urls = urls;
    this.arns = arns;
    this.checks = checks;
    this.crossShard = crossShard;
  }

  public Future<ListDeadLetterSourceQueues.Response> listDeadLetterSourceQueues(
      Caller c, ListDeadLetterSourceQueues.Request r) {
    Integer max = r.maxResults();
    QueueListing.checkMaxResults(max);
    String name = urls.nameOf(r.queueUrl());
    String baseUrl = c.baseUrl();
    return dispatcher.<String>call(router.shardOf(name), (s, reply) -> reply.succeed(s.queue(name).metadata().arn()))
        .compose(checks::sourcesOf)
        .map(names -> {
          QueueListing.Page page = QueueListing.page(names, r.nextToken(), max);
          return new ListDeadLetterSourceQueues.Response(
              page.names().stream().map(n -> urls.urlOf(baseUrl, n)).toList(), page.nextToken());
        });
  }

  public Future<StartMessageMoveTask.Response> startMessageMoveTask(StartMessageMoveTask.Request r) {
    String source = existingName(r.sourceArn(), "SourceArn");
    String destination = r.destinationArn() == null ? null : existingName(r.destinationArn(), "DestinationArn");
    Integer rate = r.maxNumberOfMessagesPerSecond();
    if (rate != null && (rate < 1 || rate > MAX_MESSAGES_PER_SECOND)) {
      throw SqsException.invalidValue(rate, "MaxNumberOfMessagesPerSecond",
          "Value must be between 1 and " + MAX_MESSAGES_PER_SECOND + ".");
    }
    if (destination != null && destination.endsWith(".fifo") != source.endsWith(".fifo")) {
      throw SqsException.invalidValue(r.destinationArn(), "DestinationArn",
          "The destination queue must be of the same type as the source queue.");
    }
    Future<QueueState> destinationExists = destination == null
        ? Future.succeededFuture()
        : dispatcher.call(router.shardOf(destination),
            (s, reply) -> reply.succeed(existing(s, destination, "DestinationArn")));
    Future<QueueState> sourceExists =
        dispatcher.call(router.shardOf(source), (s, reply) -> reply.succeed(existing(s, source, "SourceArn")));
    String sourceArn = arns.arnOf(source);
    return sourceExists
        .compose(v -> checks.sourcesOf(sourceArn))
        .compose(sources -> {
          if (sources.isEmpty()) {
            throw SqsException.invalidParameter("Source queue must be configured as a Dead Letter Queue.");
          }
          return destinationExists;
        })
        .compose(v -> dispatcher.call(router.shardOf(source), (s, reply) -> {
          // Checked again here: the queue may have gone while the other shards were asked.
          QueueState q = existing(s, source, "SourceArn");
          MessageMoveTask task = q.startMoveTask(r.destinationArn(), rate, crossShard, s.now());
          reply.succeed(new StartMessageMoveTask.Response(TaskHandles.encode(task.taskId(), sourceArn)));
        }));
  }

  public Future<ListMessageMoveTasks.Response> listMessageMoveTasks(ListMessageMoveTasks.Request r) {
    String source = existingName(r.sourceArn(), "SourceArn");
    Integer max = r.maxResults();
    if (max != null && (max < 1 || max > LIST_TASKS_MAX_RESULTS)) {
      throw SqsException.invalidValue(max, "MaxResults", "Value must be between 1 and 10.");
    }
    int limit = max == null ? 1 : max;
    return dispatcher.call(router.shardOf(source), (s, reply) -> {
      QueueState q = existing(s, source, "SourceArn");
      List<ListMessageMoveTasks.Result> results =
          q.moveTasks().stream().limit(limit).map(RedriveActions::result).toList();
      reply.succeed(new ListMessageMoveTasks.Response(results));
    });
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

  public Future<CancelMessageMoveTask.Response> cancelMessageMoveTask(CancelMessageMoveTask.Request r) {
    if (r.taskHandle() == null || r.taskHandle().isEmpty()) {
      throw SqsException.missingParameter("TaskHandle");
    }
    TaskHandles.Decoded handle = TaskHandles.decode(r.taskHandle());
    String source = arns.nameOf(handle.sourceArn());
    if (source == null) {
      throw notFound("SourceArn");
    }
    return dispatcher.call(router.shardOf(source), (s, reply) -> {
      QueueState q = existing(s, source, "SourceArn");
      MessageMoveTask task = q.moveTasks().stream()
          .filter(t -> t.taskId().equals(handle.taskId()))
          .findFirst()
          .orElseThrow(() -> new SqsException(ErrorCode.RESOURCE_NOT_FOUND, "Task does not exist."));
      if (task.status() != MessageMoveTask.Status.RUNNING) {
        throw SqsException.invalidParameter("Only a task with status RUNNING can be cancelled.");
      }
      reply.succeed(new CancelMessageMoveTask.Response(task.cancel()));
    });
  }

  /** The queue name an ARN parameter names; ResourceNotFoundException when it names none of ours. */
  private String existingName(String arn, String parameter) {
    if (arn == null || arn.isEmpty()) {
      throw SqsException.missingParameter(parameter);
    }
    String name = arns.nameOf(arn);
    if (name == null) {
      throw notFound(parameter);
    }
    return name;
  }

  /** On the queue's shard: the queue, or ResourceNotFoundException naming the ARN parameter. */
  private static QueueState existing(Shard s, String name, String parameter) {
    QueueState q = s.registry().find(name);
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
