package dev.sluice;

import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.CreateTopic;
import dev.sluice.api.topics.GetTopicAttributes;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.Subscribe;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.config.ConfigException;
import dev.sluice.config.TopicDefinition;
import dev.sluice.engine.QueueEngine;
import dev.sluice.model.QueueArns;
import io.vertx.core.Future;
import java.util.List;

/**
 * Creates the SNS topics of the configuration's {@code topics:} list that do not exist yet, with
 * their subscriptions, through the same engine calls as CreateTopic and Subscribe, so they are
 * checked as requests would be. A topic that exists (recovered from PostgreSQL) is left as it is,
 * subscriptions included: they may have been changed through the API since. Any refusal fails the
 * start, naming the entry of the list.
 */
final class PredefinedTopics {
  private static final System.Logger LOG = System.getLogger(PredefinedTopics.class.getName());

  private final QueueEngine engine;

  PredefinedTopics(QueueEngine engine) {
    this.engine = engine;
  }

  Future<Void> create(List<TopicDefinition> topics) {
    int[] created = {0};
    Future<Void> chain = Future.succeededFuture();
    for (TopicDefinition t : topics) {
      chain = chain.compose(v -> createIfAbsent(t).map(made -> {
        created[0] += made ? 1 : 0;
        return null;
      }));
    }
    return topics.isEmpty() ? chain : chain.onSuccess(v -> LOG.log(System.Logger.Level.INFO, "Predefined topics: "
        + created[0] + " created, " + (topics.size() - created[0]) + " existed already"));
  }

  /** True when the topic was made (with its subscriptions), false when it existed. */
  private Future<Boolean> createIfAbsent(TopicDefinition t) {
    StartupCaller caller = StartupCaller.of(t.accountId(), t.region());
    String arn = new TopicKey(t.accountId(), t.region(), t.name()).arn();
    return engine.sns().startupTopics().getTopicAttributes(caller, new GetTopicAttributes.Request(arn))
        .map(exists -> false)
        .recover(failure -> {
          if (!(failure instanceof SnsException e) || e.code() != SnsErrorCode.NOT_FOUND) {
            return Future.failedFuture(refused(t.key(), t, failure));
          }
          Future<Void> made = engine.sns().startupTopics()
              .createTopic(caller, new CreateTopic.Request(t.name(), t.attributes(), t.tags()))
              .<Void>mapEmpty()
              .recover(refusal -> Future.failedFuture(refused(t.key(), t, refusal)));
          for (TopicDefinition.Subscription s : t.subscriptions()) {
            String queueArn = QueueArns.arnOf(new QueueKey(t.accountId(), t.region(), s.queue()));
            made = made.compose(v -> engine.sns().startupSubscriptions()
                .subscribe(caller, new Subscribe.Request(arn, "sqs", queueArn, s.attributes(), true))
                .<Void>mapEmpty()
                .recover(refusal -> Future.failedFuture(refused(s.key(), t, refusal))));
          }
          return made.map(true);
        });
  }

  private static ConfigException refused(String key, TopicDefinition t, Throwable failure) {
    String reason = failure instanceof SnsException e ? e.code().code() + ": " + e.getMessage() : failure.toString();
    return new ConfigException("Invalid value for configuration key '" + key + "' (topic " + t.name() + "): " + reason);
  }
}
