package dev.sluice.engine;

import dev.sluice.model.Arrival;
import dev.sluice.model.BacklogStore;
import dev.sluice.model.ExpiryRequest;
import dev.sluice.model.ExpiryResult;
import dev.sluice.model.PageRequest;
import dev.sluice.model.PageResult;
import dev.sluice.model.QueueState;
import dev.sluice.model.RestoredMessage;
import dev.sluice.persistence.BacklogSql;
import dev.sluice.persistence.ExpirySql;
import dev.sluice.persistence.Fence;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One shard's {@link BacklogStore} in durable mode with paging on: page reads of its queues' rows
 * held only in PostgreSQL, on the read pool (pg.readPoolSize), answered inside a later call on the
 * shard. At most {@link #MAX_READS} reads of one shard run at once, so that one shard's queues
 * cannot take every read connection; the others wait in the order they were asked. A failed read
 * is answered with no rows, as stopped at its limit (so the queue keeps its counts: a complete read
 * that found nothing would tell it nothing is due), and the queue looks again a second later.
 * Owned by its shard's event loop: every method runs there.
 */
final class PgBacklogStore implements BacklogStore {
  private static final System.Logger LOG = System.getLogger(PgBacklogStore.class.getName());
  static final int MAX_READS = 2;
  /** A failed read is logged at most this often (others are counted in the next line). */
  static final long FAILURE_LOG_MILLIS = 60_000;
  /** Pages of at most this many rows are decoded on the shard's loop, larger ones on a worker. */
  static final int DECODE_IN_PLACE_ROWS = 100;
  /** After a failed read, the queue looks again this much later. */
  static final long RETRY_MILLIS = 1_000;

  private final Vertx vertx;
  private final Pool pool;
  /** What expiries are fenced with: a former owner (of the database, or of the shard) deletes nothing. */
  private final Fence fence;
  /** The shard the answers go to; known once it is made, after this store. */
  private final Supplier<Shard> shard;
  private final ArrayDeque<Read> waiting = new ArrayDeque<>();
  private int running;
  private long lastFailureLoggedAt = Long.MIN_VALUE;
  private long failuresNotLogged;

  PgBacklogStore(Vertx vertx, Pool pool, Fence fence, Supplier<Shard> shard) {
    this.vertx = vertx;
    this.pool = pool;
    this.fence = fence;
    this.shard = shard;
  }

  @Override
  public void readPage(QueueState queue, PageRequest request) {
    waiting.add(new Read(queue, request));
    startWaiting();
  }

  @Override
  public PageResult readNow(PageRequest request) {
    return null; // PostgreSQL answers later, never within the caller's turn
  }

  private void startWaiting() {
    while (running < MAX_READS && !waiting.isEmpty()) {
      Read read = waiting.poll();
      running++;
      PageRequest r = read.request();
      BacklogSql.page(pool, r.fifo(), r.queueId(), r.after().major(), r.after().minor(), r.upTo().major(), r.upTo().minor(),
              r.purgedBelowKey(), r.maxRows(), r.maxBytes())
          .compose(rows -> decode(rows, r))
          .onComplete((page, failure) -> answer(read, page, failure));
    }
  }

  /**
   * The pool answers on the shard's own loop (checked, design R7: Vert.x 5 completes a query on the
   * context that asked). Decoding a large page (about 1 ms per 1,000 rows) goes to a worker thread
   * instead, as rows are immutable once read; a small one costs less than the hop, so it stays.
   */
  private Future<PageResult> decode(RowSet<Row> rows, PageRequest r) {
    if (rows.size() <= DECODE_IN_PLACE_ROWS) {
      return Future.succeededFuture(result(BacklogSql.decode(rows, r.maxRows(), r.maxBytes())));
    }
    return vertx.executeBlocking(() -> result(BacklogSql.decode(rows, r.maxRows(), r.maxBytes())), false);
  }

  /**
   * As a shard call of its own, in a later turn whatever thread completed the read, so that the
   * change-log flush and the timer re-arm follow, and the next waiting read starts.
   */
  private void answer(Read read, PageResult page, Throwable failure) {
    Shard s = shard.get();
    s.later(() -> s.run((sh, reply) -> {
      running--;
      startWaiting();
      PageResult answer = page;
      if (failure != null) {
        logFailure(read.request(), failure);
        answer = new PageResult(List.of(), true);
        QueueState queue = read.queue();
        vertx.setTimer(RETRY_MILLIS, id -> s.later(() -> s.run((sh2, again) -> {
          queue.maintain(sh2.now());
          again.succeed(null);
        }, (ok, ignored) -> {})));
      }
      read.queue().acceptPage(read.request(), answer, sh.now());
      reply.succeed(null);
    }, (ok, ignored) -> {}));
  }

  private void logFailure(PageRequest r, Throwable failure) {
    long now = System.currentTimeMillis();
    if (lastFailureLoggedAt != Long.MIN_VALUE && now - lastFailureLoggedAt < FAILURE_LOG_MILLIS) {
      failuresNotLogged++;
      return;
    }
    LOG.log(System.Logger.Level.WARNING, "A page read of queue " + r.queueId() + " failed; it is asked again later"
        + (failuresNotLogged > 0 ? " (" + failuresNotLogged + " more failed reads since the last logged)" : "")
        + ": " + failure.getMessage());
    lastFailureLoggedAt = now;
    failuresNotLogged = 0;
  }

  /** Rows as the model restores them (the same shape start-up restores). */
  private static PageResult result(BacklogSql.Page page) {
    List<RestoredMessage> rows = new ArrayList<>(page.rows().size());
    for (BacklogSql.PagedRow r : page.rows()) {
      rows.add(new RestoredMessage(r.messageKey(), r.messageId(), r.content(), r.sentAt(), r.sequenceNumber(),
          r.visibleAt(), r.receiveCount(), r.firstReceiveAt(), r.receiptSequence(), r.firstVisibleAt(),
          Arrival.ofCode(r.arrival())));
    }
    return new PageResult(rows, page.reachedLimit());
  }

  /**
   * A retention expiry, on the read pool like page reads (one connection for a short transaction;
   * not counted against {@link #MAX_READS}, as a queue runs it only while it reads nothing). A failed
   * one is answered as such: the queue keeps its counts, and looks again later.
   */
  @Override
  public void expire(QueueState queue, ExpiryRequest r) {
    ExpirySql.expire(pool, fence, r.queueId(), r.fifo(), r.after().major(), r.after().minor(),
            r.cutoffSentAtMillis(), r.purgedBelowKey(), r.maxRows())
        .onComplete((expired, failure) -> {
          Shard s = shard.get();
          s.later(() -> s.run((sh, reply) -> {
            ExpiryResult result = ExpiryResult.FAILED;
            if (failure != null) {
              LOG.log(System.Logger.Level.WARNING, "A retention expiry of queue " + r.queueId()
                  + " failed; it is tried again later: " + failure.getMessage());
            } else {
              List<ExpiryResult.Row> rows = new ArrayList<>(expired.deleted().size());
              for (ExpirySql.DeletedRow d : expired.deleted()) {
                rows.add(new ExpiryResult.Row(d.firstVisibleAt(), d.sentAt(), Arrival.ofCode(d.arrival())));
              }
              result = new ExpiryResult(rows, rows.size() >= r.maxRows(), expired.oldestSentAt());
            }
            queue.acceptExpiry(r, result, sh.now());
            reply.succeed(null);
          }, (ok, ignored) -> {}));
        });
  }

  /** A page read asked for, and the queue its answer goes to. */
  private record Read(QueueState queue, PageRequest request) {}
}
