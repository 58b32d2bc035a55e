package dev.sluice.engine;

import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.JsonText;
import dev.sluice.persistence.TopicStore;
import dev.sluice.topics.SubscriptionState;
import dev.sluice.topics.TopicState;
import io.vertx.core.Future;

/**
 * One shard's topic and subscription changes on their way to PostgreSQL ({@link TopicStore}): a
 * change is answered once written, whatever the durability setting (they are rare, and a topic
 * acknowledged and then lost would lose every publish to it). A change answered as a duplicate
 * (CreateTopic or Subscribe of what exists) is written again, so that one whose first write failed
 * is kept once the retry is acknowledged. {@link #NONE} in memory mode. Used on its shard's loop.
 */
class TopicWrites {
  private static final System.Logger LOG = System.getLogger(TopicWrites.class.getName());

  /** Memory mode: nothing is written. */
  static final TopicWrites NONE = new TopicWrites(null);

  private final TopicStore store;

  TopicWrites(TopicStore store) {
    this.store = store;
  }

  Future<Void> saveTopic(TopicState t) {
    if (store == null) {
      return Future.succeededFuture();
    }
    return written(store.saveTopic(new TopicStore.TopicRow(t.generation(), t.key().accountId(), t.key().region(),
        t.key().name(), t.createdAtMillis(), JsonText.write(t.attributes().stored()),
        JsonText.write(t.tags().ordered()))));
  }

  Future<Void> deleteTopic(TopicKey key) {
    return store == null ? Future.succeededFuture()
        : written(store.deleteTopic(key.accountId(), key.region(), key.name()));
  }

  Future<Void> saveSubscription(TopicState t, SubscriptionState s) {
    if (store == null) {
      return Future.succeededFuture();
    }
    return written(store.saveSubscription(new TopicStore.SubscriptionRow(t.generation(), s.id(), s.protocol(),
        s.endpoint(), s.owner(), s.principal(), s.createdAtMillis(), JsonText.write(s.attributes().stored()),
        s.confirmation().stored())));
  }

  Future<Void> deleteSubscription(TopicState t, String id) {
    return store == null ? Future.succeededFuture() : written(store.deleteSubscription(t.generation(), id));
  }

  /** A write that failed is the retryable ServiceUnavailable: the change is in memory, not yet kept. */
  private static Future<Void> written(Future<Void> write) {
    return write.recover(failure -> {
      LOG.log(System.Logger.Level.WARNING, "A topic change was not written to PostgreSQL: " + failure.getMessage());
      return Future.failedFuture(new SnsException(SnsErrorCode.SERVICE_UNAVAILABLE,
          "The change could not be written to PostgreSQL; retry it."));
    });
  }
}
