package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.persistence.TriggerStore;
import dev.sluice.persistence.TriggerStore.TriggerRow;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Brings a single-node server's triggers back onto their queues' shards, after its queues and
 * topics: at start-up, and for one shard when it is loaded again. The runtime learns of them when it
 * is connected ({@link TriggerActions#connect}). Stateless.
 */
final class TriggerRecovery {
  private TriggerRecovery() {}

  /** Loads the stored triggers of the shards {@code loads} accepts; answers how many came back. */
  static Future<String> run(Pool pool, ShardDispatcher dispatcher, ShardRouter router, IntPredicate loads) {
    return TriggerStore.all(pool).compose(rows -> {
      Map<Integer, List<TriggerRow>> byShard = new HashMap<>();
      int count = 0;
      for (TriggerRow r : rows) {
        int shard = router.shardOf(new QueueKey(r.queueAccount(), r.region(), r.queueName()));
        if (loads.test(shard)) {
          byShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(r);
          count++;
        }
      }
      String loadedText = count + " triggers";
      List<Future<Void>> loaded = new ArrayList<>();
      byShard.forEach((shard, shardRows) -> loaded.add(dispatcher.call(shard, (s, reply) -> {
        shardRows.forEach(r -> s.triggers().restore(TriggerRows.triggerOf(r)));
        reply.succeed(null);
      })));
      return Future.all(loaded).map(done -> loadedText);
    });
  }
}
