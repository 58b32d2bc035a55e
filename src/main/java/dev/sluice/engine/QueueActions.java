package dev.sluice.engine;

import dev.sluice.api.AddPermission;
import dev.sluice.api.Caller;
import dev.sluice.api.CreateQueue;
import dev.sluice.api.DeleteQueue;
import dev.sluice.api.GetQueueAttributes;
import dev.sluice.api.GetQueueUrl;
import dev.sluice.api.ListQueueTags;
import dev.sluice.api.PurgeQueue;
import dev.sluice.api.RemovePermission;
import dev.sluice.api.SetQueueAttributes;
import dev.sluice.api.SqsException;
import dev.sluice.api.TagQueue;
import dev.sluice.api.UntagQueue;
import dev.sluice.model.QueuePermissions;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Queue lifecycle, attributes, tags and permissions: each runs on the shard that owns the queue,
 * and every change is acknowledged through {@link #durably}, as sends and FIFO deletes are.
 */
public final class QueueActions {
  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  private final QueueUrls urls;
  private final RedriveChecks redrive;

  QueueActions(ShardDispatcher dispatcher, ShardRouter router, QueueUrls urls, RedriveChecks redrive) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.urls = urls;
    this.redrive = redrive;
  }

  /** Runs {@code fn} on the shard owning the named queue, with the queue (or QueueDoesNotExist). */
  <R> Future<R> onQueue(String name, BiFunction<Shard, QueueState, R> fn) {
    return dispatcher.call(router.shardOf(name), (s, reply) -> reply.succeed(fn.apply(s, s.queue(name))));
  }

  <R> Future<R> onQueueUrl(String queueUrl, BiFunction<Shard, QueueState, R> fn) {
    return onQueue(urls.nameOf(queueUrl), fn);
  }

  /**
   * Like {@link #onQueueUrl}, for changes a client must not see acknowledged before they are
   * durable (see {@link #durably}).
   */
  <R> Future<R> onQueueUrlDurably(String queueUrl, BiFunction<Shard, QueueState, R> fn) {
    return onQueueDurably(urls.nameOf(queueUrl), fn);
  }

  /** {@link #onQueueUrlDurably}, waiting only for the queues {@code mustCommit} accepts. */
  <R> Future<R> onQueueUrlDurably(
      String queueUrl, BiFunction<Shard, QueueState, R> fn, Predicate<QueueState> mustCommit) {
    return onQueueDurably(urls.nameOf(queueUrl), fn, mustCommit);
  }

  private <R> Future<R> onQueueDurably(String name, BiFunction<Shard, QueueState, R> fn) {
    return onQueueDurably(name, fn, q -> true);
  }

  private <R> Future<R> onQueueDurably(
      String name, BiFunction<Shard, QueueState, R> fn, Predicate<QueueState> mustCommit) {
    return durably(name, s -> fn.apply(s, s.queue(name)), s -> mustCommit.test(s.queue(name)));
  }

  /** {@link #durably(String, Function, Predicate)} for a call whose changes always wait. */
  private <R> Future<R> durably(String name, Function<Shard, R> fn) {
    return durably(name, fn, s -> true);
  }

  /**
   * Runs {@code fn} on the shard that owns the named queue: the one way a change is acknowledged.
   * Under durability commit the answer waits until what the call changed has committed, and fails
   * as a send's does when it cannot (ServiceUnavailable past pg.sendTimeoutMillis, InternalFailure
   * when PostgreSQL refuses it for good); a call that changed nothing waits for what its shard
   * submitted before it, so a retried request is not acknowledged before its first attempt is
   * stored. {@code mustCommit} (asked after {@code fn}) may let a call's changes be written behind.
   * Under relaxed durability, and in memory, it answers at once.
   */
  private <R> Future<R> durably(String name, Function<Shard, R> fn, Predicate<Shard> mustCommit) {
    return dispatcher.call(router.shardOf(name), (s, reply) -> {
      R answer = fn.apply(s);
      if (!s.answersAfterCommit() || !mustCommit.test(s)) {
        reply.succeed(answer);
        return;
      }
      s.commitChanges().onComplete((committed, failure) -> {
        if (failure == null) {
          reply.succeed(answer);
        } else {
          reply.fail(failure);
        }
      });
    });
  }

  public Future<CreateQueue.Response> createQueue(Caller c, CreateQueue.Request r) {
    String name = r.queueName();
    if (name == null || name.isEmpty()) {
      return Future.failedFuture(SqsException.missingParameter("QueueName"));
    }
    String url = urls.urlOf(c.baseUrl(), name);
    // A RedrivePolicy's target may live on another shard: it is checked there first (§7.1).
    return redrive.checkRedrivePolicy(name, r.attributes()).compose(checked -> durably(name, s -> {
      s.registry().create(name, r.attributes(), r.tags(), s.now());
      return new CreateQueue.Response(url);
    }));
  }

  public Future<GetQueueUrl.Response> getQueueUrl(Caller c, GetQueueUrl.Request r) {
    String name = r.queueName();
    if (name == null || name.isEmpty()) {
      return Future.failedFuture(SqsException.missingParameter("QueueName"));
    }
    urls.checkOwner(r.queueOwnerAwsAccountId());
    String url = urls.urlOf(c.baseUrl(), name);
    return onQueue(name, (s, q) -> new GetQueueUrl.Response(url));
  }

  public Future<Void> deleteQueue(DeleteQueue.Request r) {
    String name = urls.nameOf(r.queueUrl());
    return durably(name, s -> {
      s.registry().delete(name, s.now());
      return null;
    });
  }

  public Future<GetQueueAttributes.Response> getQueueAttributes(GetQueueAttributes.Request r) {
    return onQueueUrl(r.queueUrl(), (s, q) -> new GetQueueAttributes.Response(q.attributeValues(r.attributeNames())));
  }

  public Future<Void> setQueueAttributes(SetQueueAttributes.Request r) {
    if (r.attributes() == null) {
      return Future.failedFuture(SqsException.missingParameter("Attributes"));
    }
    String name = urls.nameOf(r.queueUrl());
    return redrive.checkRedrivePolicy(name, r.attributes()).compose(checked -> onQueueDurably(name, (s, q) -> {
      q.setAttributes(r.attributes(), s.now());
      return null;
    }));
  }

  public Future<Void> tagQueue(TagQueue.Request r) {
    if (r.tags() == null) {
      return Future.failedFuture(SqsException.missingParameter("Tags"));
    }
    return onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      q.metadata().tag(r.tags());
      s.resources().changes().queueSaved(q);
      return null;
    });
  }

  public Future<Void> untagQueue(UntagQueue.Request r) {
    if (r.tagKeys() == null) {
      return Future.failedFuture(SqsException.missingParameter("TagKeys"));
    }
    return onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      q.metadata().untag(r.tagKeys());
      s.resources().changes().queueSaved(q);
      return null;
    });
  }

  public Future<ListQueueTags.Response> listQueueTags(ListQueueTags.Request r) {
    return onQueueUrl(r.queueUrl(), (s, q) -> new ListQueueTags.Response(q.metadata().tags()));
  }

  public Future<Void> purgeQueue(PurgeQueue.Request r) {
    return onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      q.purge(s.now());
      return null;
    });
  }

  public Future<Void> addPermission(AddPermission.Request r) {
    return onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      QueuePermissions.add(q, r.label(), r.awsAccountIds(), r.actions(), s.now());
      return null;
    });
  }

  public Future<Void> removePermission(RemovePermission.Request r) {
    return onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      QueuePermissions.remove(q, r.label(), s.now());
      return null;
    });
  }
}
