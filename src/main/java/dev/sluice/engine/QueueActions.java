package dev.sluice.engine;

import dev.sluice.api.AddPermission;
import dev.sluice.api.Caller;
import dev.sluice.api.CreateQueue;
import dev.sluice.api.DeleteQueue;
import dev.sluice.api.GetQueueAttributes;
import dev.sluice.api.GetQueueUrl;
import dev.sluice.api.ListQueueTags;
import dev.sluice.api.QueueKey;
import dev.sluice.api.PurgeQueue;
import dev.sluice.api.RemovePermission;
import dev.sluice.api.SetQueueAttributes;
import dev.sluice.api.SqsException;
import dev.sluice.api.TagQueue;
import dev.sluice.api.UntagQueue;
import dev.sluice.model.QueuePermissions;
import dev.sluice.model.QueueRegistry;
import dev.sluice.model.RedrivePolicy;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.Map;

/**
 * Queue lifecycle, attributes, tags and permissions: each runs on the shard that owns the queue,
 * and every change is acknowledged through {@link OwningShard#durably}, as sends and FIFO deletes
 * are.
 */
public final class QueueActions {
  private final OwningShard owningShard;
  private final RedriveChecks redrive;

  QueueActions(OwningShard owningShard, RedriveChecks redrive) {
    this.owningShard = owningShard;
    this.redrive = redrive;
  }

  /** A new queue belongs to the caller's account, in the caller's region. */
  public Future<CreateQueue.Response> createQueue(Caller c, CreateQueue.Request r) {
    String name = r.queueName();
    if (name == null || name.isEmpty()) {
      return Future.failedFuture(SqsException.missingParameter("QueueName"));
    }
    QueueKey key = c.accountRegion().queue(name);
    String url = QueueUrls.urlOf(c.baseUrl(), key);
    // Tags need TagQueue as well (AWS API reference: CreateQueue). A RedrivePolicy's target may live
    // on another shard: it is checked there, once the caller may create the queue at all (AWS:
    // Amazon SQS dead-letter queues).
    Future<Void> tagging = r.tags() == null || r.tags().isEmpty() ? Future.succeededFuture()
        : owningShard.allowed(c, "TagQueue", key);
    return tagging.compose(v -> redrivePolicyOf(r.attributes()) == null ? Future.<Void>succeededFuture()
            : owningShard.allowed(c, "CreateQueue", key))
        .compose(v -> redrive.checkRedrivePolicy(key, r.attributes()))
        .compose(checked -> owningShard.durably(c, "CreateQueue", key,
        s -> {
          s.registry(key.accountRegion()).create(name, r.attributes(), r.tags(), s.now());
          return new CreateQueue.Response(url);
        }));
  }

  /** The queue of QueueOwnerAWSAccountId when given, else of the caller's account; in the caller's region. */
  public Future<GetQueueUrl.Response> getQueueUrl(Caller c, GetQueueUrl.Request r) {
    String name = r.queueName();
    if (name == null || name.isEmpty()) {
      return Future.failedFuture(SqsException.missingParameter("QueueName"));
    }
    String owner = r.queueOwnerAwsAccountId();
    QueueKey key = new QueueKey(owner == null || owner.isEmpty() ? c.accountId() : owner, c.region(), name);
    String url = QueueUrls.urlOf(c.baseUrl(), key);
    return owningShard.onQueue(c, "GetQueueUrl", key, (s, q) -> new GetQueueUrl.Response(url));
  }

  public Future<Void> deleteQueue(Caller c, DeleteQueue.Request r) {
    QueueKey key = QueueUrls.keyOf(c.accountRegion(), r.queueUrl());
    return owningShard.durably(c, "DeleteQueue", key, s -> {
      QueueRegistry queues = s.registryIfAny(key.accountRegion());
      if (queues == null) {
        throw SqsException.queueDoesNotExist(); // and no registry is made for a place without queues
      }
      queues.delete(key.name(), s.now());
      return null;
    });
  }

  public Future<GetQueueAttributes.Response> getQueueAttributes(Caller c, GetQueueAttributes.Request r) {
    return owningShard.onQueueUrl(
        c, "GetQueueAttributes", r.queueUrl(), (s, q) -> new GetQueueAttributes.Response(q.attributeValues(r.attributeNames(), s.now())));
  }

  public Future<Void> setQueueAttributes(Caller c, SetQueueAttributes.Request r) {
    if (r.attributes() == null) {
      return Future.failedFuture(SqsException.missingParameter("Attributes"));
    }
    QueueKey key = QueueUrls.keyOf(c.accountRegion(), r.queueUrl());
    Future<Void> allowed = redrivePolicyOf(r.attributes()) == null ? Future.succeededFuture()
        : owningShard.allowed(c, "SetQueueAttributes", key);
    return allowed.compose(v -> redrive.checkRedrivePolicy(key, r.attributes()))
        .compose(checked -> owningShard.onQueueDurably(c, "SetQueueAttributes", key,
        (s, q) -> {
          q.setAttributes(r.attributes(), s.now());
          return null;
        }));
  }

  public Future<Void> tagQueue(Caller c, TagQueue.Request r) {
    if (r.tags() == null) {
      return Future.failedFuture(SqsException.missingParameter("Tags"));
    }
    return owningShard.onQueueUrlDurably(c, "TagQueue", r.queueUrl(), (s, q) -> {
      q.metadata().tag(r.tags());
      s.resources().changes().queueSaved(q);
      return null;
    });
  }

  public Future<Void> untagQueue(Caller c, UntagQueue.Request r) {
    if (r.tagKeys() == null) {
      return Future.failedFuture(SqsException.missingParameter("TagKeys"));
    }
    return owningShard.onQueueUrlDurably(c, "UntagQueue", r.queueUrl(), (s, q) -> {
      q.metadata().untag(r.tagKeys());
      s.resources().changes().queueSaved(q);
      return null;
    });
  }

  public Future<ListQueueTags.Response> listQueueTags(Caller c, ListQueueTags.Request r) {
    return owningShard.onQueueUrl(c, "ListQueueTags", r.queueUrl(), (s, q) -> new ListQueueTags.Response(q.metadata().tags()));
  }

  public Future<Void> purgeQueue(Caller c, PurgeQueue.Request r) {
    return owningShard.onQueueUrlDurably(c, "PurgeQueue", r.queueUrl(), (s, q) -> {
      q.purge(s.now());
      return null;
    });
  }

  public Future<Void> addPermission(Caller c, AddPermission.Request r) {
    return owningShard.onQueueUrlDurably(c, "AddPermission", r.queueUrl(), (s, q) -> {
      QueuePermissions.add(q, r.label(), r.awsAccountIds(), r.actions(), s.now());
      return null;
    });
  }

  public Future<Void> removePermission(Caller c, RemovePermission.Request r) {
    return owningShard.onQueueUrlDurably(c, "RemovePermission", r.queueUrl(), (s, q) -> {
      QueuePermissions.remove(q, r.label(), s.now());
      return null;
    });
  }

  private static String redrivePolicyOf(Map<String, String> attributes) {
    return attributes == null ? null : attributes.get(RedrivePolicy.NAME);
  }
}
