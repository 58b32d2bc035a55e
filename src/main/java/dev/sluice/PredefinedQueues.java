package dev.sluice;

import dev.sluice.api.CreateQueue;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.GetQueueUrl;
import dev.sluice.api.QueueKey;
import dev.sluice.api.RedeliveryBackoffPolicy;
import dev.sluice.api.SetQueueAttributes;
import dev.sluice.api.SqsException;
import dev.sluice.config.ConfigException;
import dev.sluice.config.QueueDefinition;
import dev.sluice.engine.QueueEngine;
import dev.sluice.model.QueueArns;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates the queues of the configuration's {@code queues:} list that do not exist yet, through
 * the same engine calls as CreateQueue and SetQueueAttributes, so they are checked as a request
 * would be. A queue that exists (recovered from PostgreSQL) is left as it is: it may have been
 * changed through the API since. Dead-letter policies are set once every listed queue exists, so
 * the list may name a dead-letter queue after its sources; a new queue's redelivery backoff is set
 * as the console's admin API sets it. Any refusal fails the start, naming the entry of the list.
 */
final class PredefinedQueues {
  private static final System.Logger LOG = System.getLogger(PredefinedQueues.class.getName());

  private final QueueEngine engine;

  PredefinedQueues(QueueEngine engine) {
    this.engine = engine;
  }

  Future<Void> create(List<QueueDefinition> queues) {
    Map<QueueDefinition, String> created = new LinkedHashMap<>();
    Future<Void> chain = Future.succeededFuture();
    for (QueueDefinition q : queues) {
      chain = chain.compose(v -> createIfAbsent(q).map(url -> {
        if (url != null) {
          created.put(q, url);
        }
        return null;
      }));
    }
    for (QueueDefinition q : queues) {
      if (q.redeliveryBackoff() != null) {
        chain = chain.compose(v -> created.containsKey(q) ? setRedeliveryBackoff(q, created.get(q))
            : Future.succeededFuture());
      }
      if (q.deadLetterQueue() != null) {
        chain = chain.compose(v -> created.containsKey(q) ? setDeadLetterQueue(q, created.get(q))
            : Future.succeededFuture());
      }
    }
    return queues.isEmpty() ? chain : chain.onSuccess(v -> LOG.log(System.Logger.Level.INFO, "Predefined queues: " + created.size()
        + " created, " + (queues.size() - created.size()) + " existed already"));
  }

  /** The new queue's URL, or null when it existed. */
  private Future<String> createIfAbsent(QueueDefinition q) {
    return engine.startupQueues().getQueueUrl(StartupCaller.of(q.accountId(), q.region()), new GetQueueUrl.Request(q.name(), null))
        .map(exists -> (String) null)
        .recover(failure -> {
          if (!(failure instanceof SqsException e) || e.code() != ErrorCode.QUEUE_DOES_NOT_EXIST) {
            return Future.failedFuture(refused(q.key(), q, failure));
          }
          return engine.startupQueues()
              .createQueue(StartupCaller.of(q.accountId(), q.region()), new CreateQueue.Request(q.name(), q.attributes(), q.tags()))
              .map(CreateQueue.Response::queueUrl)
              .recover(refusal -> Future.failedFuture(refused(q.key(), q, refusal)));
        });
  }

  private Future<Void> setDeadLetterQueue(QueueDefinition q, String url) {
    QueueKey deadLetterQueue = new QueueKey(q.accountId(), q.region(), q.deadLetterQueue());
    String policy = new JsonObject().put("deadLetterTargetArn", QueueArns.arnOf(deadLetterQueue))
        .put("maxReceiveCount", q.maxReceiveCount()).encode();
    return engine.startupQueues()
        .setQueueAttributes(StartupCaller.of(q.accountId(), q.region()), new SetQueueAttributes.Request(url, Map.of("RedrivePolicy", policy)))
        .recover(failure -> Future.failedFuture(refused(q.key() + ".deadLetterQueue", q, failure)));
  }

  /** A new queue's redelivery backoff, checked by the engine as the console's admin API is. */
  private Future<Void> setRedeliveryBackoff(QueueDefinition q, String url) {
    RedeliveryBackoffPolicy.SetRequest r = new RedeliveryBackoffPolicy.SetRequest(url,
        q.redeliveryBackoff().baseSeconds(), q.redeliveryBackoff().maxSeconds());
    return engine.startupRedeliveryBackoffs().set(StartupCaller.of(q.accountId(), q.region()), r).<Void>mapEmpty()
        .recover(failure -> Future.failedFuture(refused(q.key() + ".redeliveryBackoff", q, failure)));
  }

  private static ConfigException refused(String key, QueueDefinition q, Throwable failure) {
    String reason = failure instanceof SqsException e ? e.code().queryCode() + ": " + e.getMessage() : failure.toString();
    return new ConfigException("Invalid value for configuration key '" + key + "' (queue " + q.name() + "): " + reason);
  }
}
