package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;

/**
 * One Sluice per database: a session advisory lock, held on a connection of its own for as long as
 * the server runs. Two servers writing the same tables would each hold half the truth in memory
 * and overwrite each other's rows, so a second server waits here, before recovery, until the first
 * has stopped (its lock goes with its connection, even after kill -9). That is also why a
 * Kubernetes Deployment of Sluice uses the Recreate strategy.
 */
final class DatabaseOwnership {
  /** The advisory lock key of database ownership (any constant shared by every Sluice). */
  static final long OWNER_LOCK = 0x51_1ce_0002L;
  static final long RETRY_MILLIS = 1_000;
  static final long WAIT_REPORT_MILLIS = 10_000;
  private static final System.Logger LOG = System.getLogger(DatabaseOwnership.class.getName());

  private final Vertx vertx;
  private final PgConnectOptions options;
  private final String urlForLogs;
  private volatile PgConnection connection;
  private volatile boolean released;
  private long lastReportNanos;

  private DatabaseOwnership(Vertx vertx, PgConnectOptions options, String urlForLogs) {
    this.vertx = vertx;
    this.options = options;
    this.urlForLogs = urlForLogs;
  }

  /** Completes once this server holds the lock; waits while another Sluice holds it. */
  static Future<DatabaseOwnership> acquire(Vertx vertx, PgConnectOptions options, String urlForLogs) {
    DatabaseOwnership lock = new DatabaseOwnership(vertx, options, urlForLogs);
    Promise<DatabaseOwnership> held = Promise.promise();
    lock.tryAcquire(held, System.nanoTime(), true);
    return held.future();
  }

  /**
   * One attempt. Before the lock was first held, a refused connection fails the start (PostgreSQL
   * is not usable); a lock held by another server is waited for, reported at once and every 10 s.
   */
  private void tryAcquire(Promise<DatabaseOwnership> held, long waitingSince, boolean first) {
    PgConnection.connect(vertx, options).compose(conn -> conn
        .query("SELECT pg_try_advisory_lock(" + OWNER_LOCK + ")").execute()
        .compose(rows -> {
          if (rows.iterator().next().getBoolean(0)) {
            return Future.succeededFuture(conn);
          }
          return conn.close().transform(closed -> Future.<PgConnection>succeededFuture(null));
        }))
        .onComplete((conn, failure) -> {
          if (failure != null && first) {
            held.tryFail(failure);
          } else if (conn != null) {
            hold(conn);
            held.tryComplete(this);
          } else {
            long now = System.nanoTime();
            long waited = (now - waitingSince) / 1_000_000;
            if (lastReportNanos == 0 || (now - lastReportNanos) / 1_000_000 >= WAIT_REPORT_MILLIS) {
              lastReportNanos = now;
              LOG.log(System.Logger.Level.WARNING, failure != null
                  ? "Cannot reach PostgreSQL at " + urlForLogs + " to take its lock: " + failure.getMessage()
                  : "Waiting " + waited / 1000 + " s for another Sluice to stop using " + urlForLogs
                      + " (one server per database)");
            }
            vertx.setTimer(RETRY_MILLIS, t -> tryAcquire(held, waitingSince, false));
          }
        });
  }

  /** Keeps the connection; when it drops (PostgreSQL restarted) the lock is taken again. */
  private void hold(PgConnection conn) {
    connection = conn;
    conn.closeHandler(v -> {
      if (!released) {
        LOG.log(System.Logger.Level.WARNING, "Lost the connection holding the database lock; taking it again");
        Promise<DatabaseOwnership> again = Promise.promise();
        again.future().onSuccess(lock -> LOG.log(System.Logger.Level.INFO, "Holding the database lock again"));
        vertx.setTimer(RETRY_MILLIS, t -> tryAcquire(again, System.nanoTime(), false));
      }
    });
  }

  /** Lets go at the end of a stop (closing the connection releases the lock). */
  Future<Void> release() {
    released = true;
    PgConnection conn = connection;
    return conn == null ? Future.succeededFuture() : conn.close();
  }
}
