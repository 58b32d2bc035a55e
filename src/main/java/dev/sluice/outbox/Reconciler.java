package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Lets the queues forget receipts the relay lost track of: a round committed its deletes, then the
 * relay stopped before its forget reached the queue. Every receipt of the source a queue on this
 * node keeps whose row is no longer in the outbox is forgotten; a row still there keeps its receipt
 * (it may be mid-round, or sent and not yet deleted). Only receipts of the source's own account and
 * region are considered: the relay sends to no other. Stateless; runs on the relay's event loop.
 */
final class Reconciler {
  private final RelayTarget target;
  private final OutboxSql sql;
  private final String accountId;
  private final String region;

  Reconciler(RelayTarget target, OutboxSql sql, String accountId, String region) {
    this.target = target;
    this.sql = sql;
    this.accountId = accountId;
    this.region = region;
  }

  /** Reconciles under the lease of fencing token {@code epoch}; answers how many receipts were forgotten. */
  Future<Integer> run(Pool pool, long epoch) {
    return target.heldHere().compose(held -> {
      List<Future<Integer>> forgotten = new ArrayList<>();
      for (RelaySend.Held h : held) {
        if (h.queue().accountId().equals(accountId) && h.queue().region().equals(region) && !h.rowIds().isEmpty()) {
          forgotten.add(forgetGone(pool, h, epoch));
        }
      }
      return Future.all(forgotten).map(all -> forgotten.stream().mapToInt(Future::result).sum());
    });
  }

  private Future<Integer> forgetGone(Pool pool, RelaySend.Held held, long epoch) {
    return pool.preparedQuery(sql.present()).execute(Tuple.of((Object) held.rowIds().toArray(Long[]::new)))
        .compose(rows -> {
          Set<Long> present = new HashSet<>();
          for (Row r : rows) {
            present.add(r.getLong(0));
          }
          List<Long> gone = held.rowIds().stream().filter(id -> !present.contains(id)).toList();
          return gone.isEmpty() ? Future.succeededFuture(0)
              : target.forget(held.queue().name(), epoch, gone).map(forgot -> gone.size());
        });
  }
}
