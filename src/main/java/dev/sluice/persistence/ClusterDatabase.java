package dev.sluice.persistence;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Pool;
import java.util.function.Consumer;

/**
 * A cluster node's hold on the database its nodes share (design page cluster.md, §2.4). Shards are
 * not owned here: each has a lease of its own, kept by the cluster's lease keeper. What this holds:
 *
 * <ul>
 *   <li>A shared advisory lock on a connection of its own. Every cluster node takes it; a
 *       single-node server's exclusive lock on the same key excludes them, and theirs exclude it,
 *       each side waiting for the other to stop.
 *   <li>The node's join ({@link ShardLeaseSql#join}): schema migrated, shard count checked, the
 *       database taken from a single-node server that used it before.
 *   <li>The database epoch the cluster holds it at. The node's writes that belong to no shard
 *       (reaping purged rows, pruning deduplication history, the receipt-handle key) carry it, so a
 *       single-node server that claims the database later fences them too; such a refusal means
 *       the cluster lost the database, and this node stops serving for good.
 * </ul>
 *
 * Owned by the context {@link #join} ran on; {@link #notServingReason} is read from any thread.
 */
final class ClusterDatabase implements DatabaseHold {
  static final long RETRY_MILLIS = 1_000;
  private static final System.Logger LOG = System.getLogger(ClusterDatabase.class.getName());

  private final Vertx vertx;
  private final Context context;
  private final PgConnectOptions options;
  private final String urlForLogs;
  private final Pool pool;
  private final ClusterJoin join;
  private final Promise<Void> fenced = Promise.promise();
  private volatile String fencedBecause;
  private volatile Consumer<Boolean> servingChanged = serving -> {};
  private long epoch;
  private PgConnection lock;
  private boolean done;
  private long lastReportNanos;

  private ClusterDatabase(Vertx vertx, Context context, PgConnectOptions options, String urlForLogs, Pool pool,
      ClusterJoin join) {
    this.vertx = vertx;
    this.context = context;
    this.options = options;
    this.urlForLogs = urlForLogs;
    this.pool = pool;
    this.join = join;
  }

  /**
   * Takes the shared lock (waiting while a single-node server holds the database), migrates the
   * schema, joins the cluster and reads the database epoch. A connection refused before the lock
   * was first held fails the start.
   */
  static Future<ClusterDatabase> join(Vertx vertx, PgConnectOptions options, String urlForLogs,
      SchemaMigrations scripts, Pool pool, ClusterJoin join) {
    Context context = vertx.getOrCreateContext();
    ClusterDatabase db = new ClusterDatabase(vertx, context, options, urlForLogs, pool, join);
    Promise<Void> locked = Promise.promise();
    context.runOnContext(v -> db.takeLock(locked, true));
    return locked.future()
        .compose(v -> scripts.migrate(pool))
        .compose(version -> ShardLeaseSql.join(pool, join.shards(), join.nodeId(), join.holder(), join.address(),
            join.configHash(), join.leaseMillis()))
        .compose(v -> pool.query(DatabaseOwnership.EPOCH).execute())
        .map(rows -> {
          db.epoch = rows.iterator().next().getLong(0);
          LOG.log(System.Logger.Level.INFO, "Joined the cluster on " + urlForLogs + " as node " + join.nodeId()
              + " (" + join.shards() + " shards; database epoch " + db.epoch + ")");
          return db;
        })
        .recover(failure -> db.release(false).transform(v -> Future.failedFuture(failure)));
  }

  /** The database epoch this node's writes that belong to no shard carry. */
  long epoch() {
    return epoch;
  }

  /** One attempt at the shared lock; retried every second while a single-node server holds the database. */
  private void takeLock(Promise<Void> locked, boolean first) {
    if (done) {
      locked.tryFail("the cluster node is stopping");
      return;
    }
    PgConnection.connect(vertx, options).compose(conn -> conn
            .query("SELECT pg_try_advisory_lock_shared(" + DatabaseOwnership.OWNER_LOCK + ")").execute()
            .compose(rows -> rows.iterator().next().getBoolean(0) ? Future.succeededFuture(conn)
                : conn.close().transform(closed -> Future.<PgConnection>succeededFuture(null)),
                failure -> conn.close().transform(closed -> Future.failedFuture(failure))))
        .onComplete((conn, failure) -> {
          if (failure != null && first) {
            locked.tryFail(failure);
          } else if (conn != null) {
            hold(conn);
            locked.tryComplete();
          } else {
            report(failure != null ? "Cannot reach PostgreSQL at " + urlForLogs + " to take its lock: "
                + failure.getMessage() : "Waiting for a single-node Sluice to stop using " + urlForLogs
                + " (cluster nodes share a database only with each other)");
            vertx.setTimer(RETRY_MILLIS, t -> takeLock(locked, false));
          }
        });
  }

  /**
   * Keeps the lock's connection; when it closes, the lock is taken again in the background (shard
   * leases, not this lock, decide what the node serves meanwhile).
   */
  private void hold(PgConnection conn) {
    lock = conn;
    conn.exceptionHandler(failure -> {});
    conn.closeHandler(v -> {
      if (conn == lock && !done) {
        lock = null;
        LOG.log(System.Logger.Level.WARNING, "Lost the connection holding the cluster's lock on " + urlForLogs
            + "; taking it again");
        vertx.setTimer(RETRY_MILLIS, t -> takeLock(Promise.promise(), false));
      }
    });
  }

  private void report(String message) {
    long now = System.nanoTime();
    if (lastReportNanos == 0 || (now - lastReportNanos) / 1_000_000 >= DatabaseOwnership.WAIT_REPORT_MILLIS) {
      lastReportNanos = now;
      LOG.log(System.Logger.Level.WARNING, message);
    }
  }

  @Override
  public String notServingReason() {
    return fencedBecause;
  }

  @Override
  public void onServingChanged(Consumer<Boolean> listener) {
    servingChanged = listener;
  }

  @Override
  public Future<Void> fenced() {
    return fenced.future();
  }

  @Override
  public void writeRefused(long attemptEpoch) {
    context.runOnContext(v -> {
      if (attemptEpoch != epoch || fencedBecause != null) {
        return;
      }
      fencedBecause = "another Sluice claimed " + urlForLogs + " after this cluster node's epoch " + epoch;
      LOG.log(System.Logger.Level.ERROR, "Fenced: " + fencedBecause + "; this node will not serve again");
      servingChanged.accept(false);
      fenced.tryComplete();
    });
  }

  /** Leaves the cluster (its member row goes) and lets the lock go. */
  @Override
  public Future<Void> release(boolean clean) {
    Promise<Void> released = Promise.promise();
    context.runOnContext(v -> {
      done = true;
      PgConnection conn = lock;
      lock = null;
      ShardLeaseSql.leave(pool, join.nodeId())
          .transform(left -> conn == null ? Future.<Void>succeededFuture() : conn.close())
          .onComplete(closed -> released.complete());
    });
    return released.future();
  }
}
