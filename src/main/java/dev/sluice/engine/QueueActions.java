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

/**
 * Queue lifecycle, attributes, tags and permissions: each runs on the shard that owns the queue,
 * and every change is acknowledged through {@link OwningShard#durably}, as sends and FIFO deletes
 * are.
 */
public final class QueueActions {
  private final OwningShard owningShard;
  private final QueueUrls urls;
  private final RedriveChecks redrive;

  QueueActions(OwningShard owningShard, QueueUrls urls, RedriveChecks redrive) {
    this.owningShard = owningShard;
    this.urls = urls;
    this.redrive = redrive;
  }

  public Future<CreateQueue.Response> createQueue(Caller c, CreateQueue.Request r) {
    String name = r.queueName();
    if (name == null || name.isEmpty()) {
      return Future.failedFuture(SqsException.missingParameter("QueueName"));
    }
    String url = urls.urlOf(c.baseUrl(), name);
    // A RedrivePolicy's target may live on another shard: it is checked there first (AWS: Amazon SQS
    // dead-letter queues).
    return redrive.checkRedrivePolicy(name, r.attributes()).compose(checked -> owningShard.durably(name,
        s -> {
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
    return owningShard.onQueue(name, (s, q) -> new GetQueueUrl.Response(url));
  }

  public Future<Void> deleteQueue(DeleteQueue.Request r) {
    String name = urls.nameOf(r.queueUrl());
    return owningShard.durably(name, s -> {
      s.registry().delete(name, s.now());
      return null;
    });
  }

  public Future<GetQueueAttributes.Response> getQueueAttributes(GetQueueAttributes.Request r) {
    return owningShard.onQueueUrl(
        r.queueUrl(), (s, q) -> new GetQueueAttributes.Response(q.attributeValues(r.attributeNames())));
  }

  public Future<Void> setQueueAttributes(SetQueueAttributes.Request r) {
    if (r.attributes() == null) {
      return Future.failedFuture(SqsException.missingParameter("Attributes"));
    }
    String name = urls.nameOf(r.queueUrl());
    return redrive.checkRedrivePolicy(name, r.attributes()).compose(checked -> owningShard.onQueueDurably(name,
        (s, q) -> {
          q.setAttributes(r.attributes(), s.now());
          return null;
        }));
  }

  public Future<Void> tagQueue(TagQueue.Request r) {
    if (r.tags() == null) {
      return Future.failedFuture(SqsException.missingParameter("Tags"));
    }
    return owningShard.onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      q.metadata().tag(r.tags());
      s.resources().changes().queueSaved(q);
      return null;
    });
  }

  public Future<Void> untagQueue(UntagQueue.Request r) {
    if (r.tagKeys() == null) {
      return Future.failedFuture(SqsException.missingParameter("TagKeys"));
    }
    return owningShard.onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      q.metadata().untag(r.tagKeys());
      s.resources().changes().queueSaved(q);
      return null;
    });
  }

  public Future<ListQueueTags.Response> listQueueTags(ListQueueTags.Request r) {
    return owningShard.onQueueUrl(r.queueUrl(), (s, q) -> new ListQueueTags.Response(q.metadata().tags()));
  }

  public Future<Void> purgeQueue(PurgeQueue.Request r) {
    return owningShard.onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      q.purge(s.now());
      return null;
    });
  }

  public Future<Void> addPermission(AddPermission.Request r) {
    return owningShard.onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      QueuePermissions.add(q, r.label(), r.awsAccountIds(), r.actions(), s.now());
      return null;
    });
  }

  public Future<Void> removePermission(RemovePermission.Request r) {
    return owningShard.onQueueUrlDurably(r.queueUrl(), (s, q) -> {
      QueuePermissions.remove(q, r.label(), s.now());
      return null;
    });
  }
}
