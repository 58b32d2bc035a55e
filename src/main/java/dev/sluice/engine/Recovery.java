package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.HeadWindow;
import dev.sluice.model.JsonText;
import dev.sluice.model.QueueState;
import dev.sluice.model.Arrival;
import dev.sluice.model.RedeliveryBackoff;
import dev.sluice.model.RestoredMessage;
import dev.sluice.persistence.Fence;
import dev.sluice.persistence.Tallies;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.sqlclient.Cursor;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * Start-up in durable mode (src/site/markdown/durability.md): every queue, in its account and
 * region, with its FIFO delay rule, then every live message with its deadline, receive count and
 * receipt number (paging on: only those up to each queue's frontier, see {@link BacklogRecovery}),
 * put back on the shard that owns it before the HTTP port opens. Messages go to their shard in
 * chunks, each one shard call, so no loop holds a long turn.
 */
final class Recovery {
  static final int CHUNK = 5_000;

  private final ShardDispatcher dispatcher;
  private final ShardRouter router;
  /** Paging on: queues come back lazily (§2.15); null: every row is loaded. */
  private final HeadWindow window;

  /** The shards' clock: rows counted due at start-up are those due by the time pages are read with. */
  private final LongSupplier clock;

  Recovery(ShardDispatcher dispatcher, ShardRouter router, HeadWindow window, LongSupplier clock) {
    this.dispatcher = dispatcher;
    this.router = router;
    this.window = window;
    this.clock = clock;
  }

  private static final System.Logger LOG = System.getLogger(Recovery.class.getName());
  /** Rows restored per queue id, to check the tallies against; live queues all have an entry. */
  private final Map<Long, Long> counted = new java.util.HashMap<>();

  /** Every live queue's id and key. */
  private final Map<Long, QueueKey> queues = new java.util.HashMap<>();
  /**
   * Per FIFO queue, the latest sent time whose never-received rows are visible at start-up: those
   * stay visible whatever its DelaySeconds becomes, so only later ones may be counted delayed.
   */
  private final Map<Long, Long> fifoVisibleThrough = new java.util.HashMap<>();

  /** Every queue: answers how many queues and messages came back; {@code fence} fences what it writes back. */
  Future<String> run(Pool pool, Fence fence) {
    return run(pool, fence, shard -> true);
  }

  /**
   * The queues of the shards {@code ofShard} accepts only, onto their shards (deployed, not serving
   * yet): a cluster node taking shards over, or a shard loaded again.
   */
  Future<String> run(Pool pool, Fence fence, IntPredicate ofShard) {
    return pool.query("SELECT id, account_id, region, name, created_at, modified_at, attributes, tags,"
            + " delay_released_through, delay_changed_at, purged_below_key, redelivery_backoff FROM sluice_queues")
        .execute()
        .compose(rows -> {
          List<Long> ids = new ArrayList<>();
          List<Future<Long>> restored = new ArrayList<>();
          int count = 0;
          for (Row r : rows) {
            long id = r.getLong(0);
            QueueKey key = new QueueKey(r.getString(1), r.getString(2), r.getString(3));
            if (!ofShard.test(router.shardOf(key))) {
              continue;
            }
            count++;
            counted.put(id, 0L);
            queues.put(id, key);
            ids.add(id);
            restored.add(dispatcher.call(router.shardOf(key), (s, reply) -> {
              QueueState q = s.registry(key.accountRegion()).restore(key.name(), id, r.getLong(4),
                  r.getLong(5), strings(r.getString(6)), strings(r.getString(7)));
              // Before any of its rows: a never-received FIFO row is restored as the rule says.
              q.restoreDelayRule(r.getLong(8), r.getLong(9));
              // A purge the reaper has not finished: its rows are still in the table, never to be read.
              q.restorePurgedBelowKey(r.getLong(10));
              if (r.getString(11) != null) {
                q.restoreRedeliveryBackoff(RedeliveryBackoff.fromJson(r.getString(11)));
              }
              q.resumeSequence(s.now()); // FIFO queues only: standard ones number nothing
              reply.succeed(q.attributes().fifo() ? visibleThrough(q, s.now()) : null);
            }));
          }
          int queueCount = count;
          return Future.all(restored).map(all -> {
            for (int i = 0; i < ids.size(); i++) {
              if (restored.get(i).result() != null) {
                fifoVisibleThrough.put(ids.get(i), restored.get(i).result());
              }
            }
            return queueCount;
          });
        })
        .compose(queueCount -> (window == null ? restoreAll(pool, fence) : restoreLazily(pool, fence))
            .compose(messages -> restoreDeduplication(pool)
                .compose(entries -> restoreRelayReceipts(pool)
                    .map(receipts -> queueCount + " queues, " + messages + " messages, " + entries
                        + " deduplication entries and " + receipts + " outbox receipts"))));
  }

  /** Live messages of the queues of $1: not below a purge (those are the reaper's). */
  static final String MESSAGES = "SELECT q.account_id, q.region, q.name, m.message_key, m.message_id, m.sent_at,"
      + " m.sequence_number, m.visible_at, m.receive_count, m.first_receive_at, m.receipt_sequence, m.content,"
      + " m.first_visible_at, m.arrival, m.queue_id, m.in_backoff"
      + " FROM sluice_messages m JOIN sluice_queues q ON q.id = m.queue_id AND m.message_key >= q.purged_below_key"
      + " WHERE q.id = ANY($1::bigint[]) ORDER BY m.queue_id, m.sequence_number, m.message_key";

  /** The ids of the queues being restored, as a statement's first parameter. */
  private Tuple queueIds() {
    return Tuple.tuple().addArrayOfLong(queues.keySet().toArray(Long[]::new));
  }

  /** Paging off: every live row, and the tallies checked against them. */
  private Future<Integer> restoreAll(Pool pool, Fence fence) {
    return restoreMessages(pool, MESSAGES).compose(messages -> checkTallies(pool, fence).map(messages));
  }

  /**
   * The FIFO delay rule's bound at {@code nowMillis} (design §2.9): a never-received row sent at or
   * before the latest sent time a DelaySeconds change released, or one delay before now, is visible;
   * a later change releases every row visible then, so the bound never goes back.
   */
  private static long visibleThrough(QueueState q, long nowMillis) {
    return Math.max(q.delayReleasedThroughMillis(), nowMillis - q.attributes().delaySeconds() * 1000L);
  }

  /**
   * Paging on (§2.15): every queue only up to its persisted frontier, the rest counted from the
   * tallies, which a full load no longer checks; their lanes are folded.
   */
  private Future<Integer> restoreLazily(Pool pool, Fence fence) {
    return Tallies.read(pool, queues.keySet()).compose(tallies -> restoreMessages(pool, BacklogRecoverySql.RESIDENT)
        .compose(messages -> {
          Map<Long, Long> live = new java.util.HashMap<>();
          queues.keySet().forEach(id -> live.put(id, tallies.getOrDefault(id, Tallies.Tally.NONE).messages()));
          return Tallies.fold(pool, fence, live)
              .compose(folded -> new BacklogRecovery(dispatcher, router, window.bucketMillis(), clock)
                  .run(pool, queues, fifoVisibleThrough, tallies, counted))
              .map(messages);
        }));
  }

  /**
   * The tallies must say what the full load found; a difference is a defect (some write removed
   * rows without counting them) and is logged, then the counted numbers replace the tallies.
   */
  private Future<Void> checkTallies(Pool pool, Fence fence) {
    return Tallies.settle(pool, fence, counted).map(mismatches -> {
      mismatches.forEach(m -> LOG.log(System.Logger.Level.WARNING, "Tally mismatch: " + m + "; corrected"));
      return null;
    });
  }

  /**
   * Every live message through a cursor, a page of {@link #CHUNK} rows at a time, each page put
   * back on its shards before the next is read: memory holds one page, whatever the backlog.
   * Pages follow the queue's order, so FIFO messages come back in sequence.
   */
  private Future<Integer> restoreMessages(Pool pool, String sql) {
    return pool.withTransaction(conn -> conn.prepare(sql).compose(statement -> {
      Cursor cursor = statement.cursor(queueIds());
      Promise<Integer> done = Promise.promise();
      readPage(cursor, 0, done);
      return done.future().eventually(cursor::close);
    }));
  }

  private void readPage(Cursor cursor, int soFar, Promise<Integer> done) {
    cursor.read(CHUNK).compose(this::restorePage).onComplete((n, failure) -> {
      if (failure != null) {
        done.fail(failure);
      } else if (cursor.hasMore()) {
        readPage(cursor, soFar + n, done);
      } else {
        done.complete(soFar + n);
      }
    });
  }

  private Future<Integer> restorePage(Iterable<Row> rows) {
    Map<Integer, List<Restored>> byShard = new LinkedHashMap<>();
    int count = 0;
    for (Row r : rows) {
      QueueKey key = keyOf(r);
      // The content column's bytes as they are: the shard writes them into its slab undecoded.
      RestoredMessage m = new RestoredMessage(r.getLong(3), r.getUUID(4), r.getBuffer(11).getBytes(), r.getLong(5),
          r.getLong(6), r.getLong(7), r.getInteger(8), r.getLong(9), r.getInteger(10), r.getLong(12),
          Arrival.ofCode(r.getShort(13)), r.getBoolean(15));
      counted.merge(r.getLong(14), 1L, Long::sum);
      byShard.computeIfAbsent(router.shardOf(key), k -> new ArrayList<>()).add(new Restored(key, m));
      count++;
    }
    List<Future<Void>> done = new ArrayList<>();
    // A page holds at most CHUNK rows, so each shard restores its share in one call.
    byShard.forEach((shard, messages) -> done.add(dispatcher.call(shard, (s, reply) -> {
      long now = s.now();
      for (Restored m : messages) {
        s.queue(m.queue()).restore(m.message(), now);
      }
      reply.succeed(null);
    })));
    int total = count;
    return Future.all(done).map(all -> total);
  }

  /** A message read back, and the queue it goes to. */
  private record Restored(QueueKey queue, RestoredMessage message) {}

  /** FIFO deduplication entries still within their window, in expiry order. */
  private Future<Integer> restoreDeduplication(Pool pool) {
    long now = System.currentTimeMillis();
    return pool.preparedQuery("SELECT q.account_id, q.region, q.name, d.dedup_key, d.message_id, d.sequence_number,"
            + " d.expires_at FROM sluice_dedup d JOIN sluice_queues q ON q.id = d.queue_id WHERE d.expires_at > $2"
            + " AND q.id = ANY($1::bigint[]) ORDER BY d.expires_at").execute(queueIds().addLong(now))
        .compose(rows -> onOwningShards(rows, (q, r) -> {
          if (q.attributes().fifo()) {
            q.restoreDeduplication(r.getString(3), r.getUUID(4).toString(), r.getLong(5), r.getLong(6));
          }
        }));
  }

  /** The receipts of outbox rows the queues stored (src/site/markdown/outbox.md). */
  private Future<Integer> restoreRelayReceipts(Pool pool) {
    return pool.preparedQuery("SELECT q.account_id, q.region, q.name, r.source, r.row_id, r.message_id"
            + " FROM sluice_relay_receipts r JOIN sluice_queues q ON q.id = r.queue_id WHERE q.id = ANY($1::bigint[])")
        .execute(queueIds())
        .compose(rows -> onOwningShards(rows, (q, r) ->
            q.relayReceipts().restore(r.getString(3), r.getLong(4), r.getUUID(5).toString())));
  }

  /**
   * Each row on the shard of the queue its first columns name (account_id, region and name), given
   * to {@code restore} with the queue, in the rows' order; a queue gone meanwhile is skipped.
   */
  private Future<Integer> onOwningShards(RowSet<Row> rows, BiConsumer<QueueState, Row> restore) {
    Map<Integer, List<Row>> byShard = new LinkedHashMap<>();
    for (Row r : rows) {
      byShard.computeIfAbsent(router.shardOf(keyOf(r)), k -> new ArrayList<>()).add(r);
    }
    List<Future<Void>> done = new ArrayList<>();
    byShard.forEach((shard, entries) -> done.add(dispatcher.call(shard, (s, reply) -> {
      for (Row r : entries) {
        QueueState q = s.find(keyOf(r));
        if (q != null) {
          restore.accept(q, r);
        }
      }
      reply.succeed(null);
    })));
    return Future.all(done).map(all -> rows.size());
  }

  /** The queue of a row whose first columns are account_id, region and name. */
  private static QueueKey keyOf(Row r) {
    return new QueueKey(r.getString(0), r.getString(1), r.getString(2));
  }

  private static Map<String, String> strings(String json) {
    Map<String, String> out = new LinkedHashMap<>();
    Map<String, Object> parsed = JsonText.parseObject(json);
    if (parsed != null) {
      parsed.forEach((k, v) -> out.put(k, String.valueOf(v)));
    }
    return out;
  }
}
