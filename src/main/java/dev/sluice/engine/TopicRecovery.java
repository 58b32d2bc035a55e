package dev.sluice.engine;

import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.JsonText;
import dev.sluice.persistence.TopicStore;
import dev.sluice.persistence.TopicStore.SubscriptionRow;
import dev.sluice.persistence.TopicStore.TopicRow;
import dev.sluice.topics.TopicState;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Brings a single-node server's topics and subscriptions back at start-up, after its queues: each
 * shard gets its topics in one call, each topic its subscriptions in the order they were made, their
 * filter policies compiled again. Stateless.
 */
final class TopicRecovery {
  private TopicRecovery() {}

  /** Loads every stored topic onto its shard; answers how many came back. */
  static Future<String> run(Pool pool, ShardDispatcher dispatcher, ShardRouter router) {
    return run(pool, dispatcher, router, shard -> true);
  }

  /** Loads the stored topics of the shards {@code loads} accepts (a shard reloaded, or taken over). */
  static Future<String> run(Pool pool, ShardDispatcher dispatcher, ShardRouter router, IntPredicate loads) {
    return TopicStore.topics(pool).compose(topics -> TopicStore.subscriptions(pool).compose(subscriptions -> {
      Map<Long, List<SubscriptionRow>> byTopic = new HashMap<>();
      subscriptions.forEach(s -> byTopic.computeIfAbsent(s.topicId(), id -> new ArrayList<>()).add(s));
      Map<Integer, List<TopicRow>> byShard = new HashMap<>();
      int loadedTopics = 0;
      for (TopicRow t : topics) {
        int shard = router.shardOf(new TopicKey(t.accountId(), t.region(), t.name()));
        if (loads.test(shard)) {
          byShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(t);
          loadedTopics++;
        }
      }
      String loadedText = loadedTopics + " topics";
      List<Future<Void>> loaded = new ArrayList<>();
      byShard.forEach((shard, rows) -> loaded.add(dispatcher.call(shard, (s, reply) -> {
        for (TopicRow row : rows) {
          restore(s, row, byTopic.getOrDefault(row.id(), List.of()));
        }
        reply.succeed(null);
      })));
      return Future.all(loaded).map(done -> loadedText);
    }));
  }

  private static void restore(Shard s, TopicRow row, List<SubscriptionRow> subscriptions) {
    TopicState t = s.topics().restore(new TopicKey(row.accountId(), row.region(), row.name()), row.id(),
        row.createdAt(), strings(row.attributes()), strings(row.tags()));
    for (SubscriptionRow sub : subscriptions) {
      t.restoreSubscription(sub.id(), sub.protocol(), sub.endpoint(), sub.owner(), sub.principal(), sub.createdAt(),
          strings(sub.attributes()), sub.confirmation());
    }
  }

  /** A stored JSON object of strings, in its order. */
  private static Map<String, String> strings(String json) {
    Map<String, String> out = new LinkedHashMap<>();
    JsonText.parseObject(json).forEach((k, v) -> out.put(k, String.valueOf(v)));
    return out;
  }
}
