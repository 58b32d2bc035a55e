package dev.sluice.persistence;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.function.Consumer;

/**
 * Owned by the event-loop context {@link #acquire} was called from (its own: every method below
 * hops onto it); other threads read only the published {@link Lease} snapshot. One Sluice per
 * database, and only while it can prove it.
 *
 * <p>A session advisory lock, held on a connection of its own, keeps a second server waiting at
 * start-up until the first has stopped (the lock goes with the connection, even after kill -9).
 * But a lock can be lost while its server runs (the backend terminated, the connection dropped, a
 * paused process), so the lock alone does not stop a server that believes it still holds it:
 *
 * <ul>
 *   <li>Having taken the lock (and migrated the schema), a server <em>claims</em> the database: it
 *       bumps {@code sluice_owner.epoch} and keeps the new value as its fencing token, which every
 *       write carries ({@link WriteFence}) and PostgreSQL checks ({@code sluice_fence}). A server
 *       whose epoch has moved on cannot write, whatever it believes.
 *   <li>It serves only while its {@link Lease} is valid: a heartbeat on the lock's connection every
 *       quarter lease renews it. A lost connection suspends serving while the lock is taken again;
 *       an epoch found moved (by a heartbeat, on retaking the lock, or by a refused write) fences
 *       this server for good.
 *   <li>A clean stop marks the database released; a server taking over a database that was not
 *       released waits out its predecessor's lease before serving.
 * </ul>
 *
 * That is also why a Kubernetes Deployment of Sluice uses the Recreate strategy.
 */
final class DatabaseOwnership implements DatabaseHold {
  /** The advisory lock key of database ownership (any constant shared by every Sluice). */
  static final long OWNER_LOCK = 0x51_1ce_0002L;
  static final long RETRY_MILLIS = 1_000;
  static final long WAIT_REPORT_MILLIS = 10_000;
  /** Heartbeat periods an unanswered heartbeat may wait before the lock's connection counts as dead. */
  static final int HEARTBEATS_UNANSWERED = 4;
  static final String EPOCH = "SELECT epoch FROM sluice_owner WHERE id = 1";
  /**
   * One statement: waits for every write transaction still holding the fence (FOR UPDATE against
   * their FOR SHARE), then takes the next epoch. Answers it and whether the last owner released.
   * It also moves every cluster shard's epoch on and releases the shard (waiting likewise for the
   * writes holding {@code sluice_shard_fence}), so that a cluster node paused while this server
   * took the database cannot write after it either.
   */
  static final String CLAIM = "WITH before AS (SELECT epoch, released FROM sluice_owner WHERE id = 1 FOR UPDATE),"
      + " shards AS (UPDATE sluice_shard_leases SET epoch = epoch + 1, owner = NULL, released = true,"
      + " expires_at = NULL)"
      + " UPDATE sluice_owner o SET epoch = before.epoch + 1, released = false, holder = $1, acquired_at = $2"
      + " FROM before WHERE o.id = 1 RETURNING o.epoch, before.released, before.epoch";
  private static final System.Logger LOG = System.getLogger(DatabaseOwnership.class.getName());

  private final Vertx vertx;
  private final Context context;
  private final PgConnectOptions options;
  private final String urlForLogs;
  private final long leaseMillis;
  private final Promise<Void> fenced = Promise.promise();
  /** The lock's connection; null while the lock is not held. */
  private PgConnection connection;
  /** When the answer that the lock was taken came (monotonic ms): a taker's wait counts from it. */
  private long lockedAt;
  /** Null until claimed. */
  private Lease lease;
  private volatile Lease published;
  private volatile Consumer<Boolean> servingChanged = serving -> {};
  private boolean lastServing;
  /** Stopping (or fenced): the lock is not taken again. */
  private boolean done;
  private long heartbeatSentAt = -1;
  private int heartbeatPeriodsWaited;
  private long heartbeatTimer = -1;
  private long changeTimer = -1;
  private long lastReportNanos;

  private DatabaseOwnership(Vertx vertx, Context context, PgConnectOptions options, String urlForLogs,
      long leaseMillis) {
    this.vertx = vertx;
    this.context = context;
    this.options = options;
    this.urlForLogs = urlForLogs;
    this.leaseMillis = leaseMillis;
  }

  static long now() {
    return System.nanoTime() / 1_000_000;
  }

  /** Completes once this server holds the lock; waits while another Sluice holds it. */
  static Future<DatabaseOwnership> acquire(Vertx vertx, PgConnectOptions options, String urlForLogs,
      long leaseMillis) {
    Context context = vertx.getOrCreateContext();
    DatabaseOwnership owner = new DatabaseOwnership(vertx, context, options, urlForLogs, leaseMillis);
    Promise<DatabaseOwnership> held = Promise.promise();
    context.runOnContext(v -> owner.tryAcquire(held, System.nanoTime(), true));
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
        }, failure -> conn.close().transform(closed -> Future.failedFuture(failure))))
        .onComplete((conn, failure) -> {
          if (failure != null && first) {
            held.tryFail(failure);
          } else if (conn != null) {
            lockedAt = now();
            hold(conn);
            held.tryComplete(this);
          } else {
            long waited = (System.nanoTime() - waitingSince) / 1_000_000;
            report(failure != null
                ? "Cannot reach PostgreSQL at " + urlForLogs + " to take its lock: " + failure.getMessage()
                : "Waiting " + waited / 1000 + " s for another Sluice to stop using " + urlForLogs
                    + " (one server per database)");
            vertx.setTimer(RETRY_MILLIS, t -> tryAcquire(held, waitingSince, false));
          }
        });
  }

  private void report(String message) {
    long now = System.nanoTime();
    if (lastReportNanos == 0 || (now - lastReportNanos) / 1_000_000 >= WAIT_REPORT_MILLIS) {
      lastReportNanos = now;
      LOG.log(System.Logger.Level.WARNING, message);
    }
  }

  private void hold(PgConnection conn) {
    connection = conn;
    heartbeatSentAt = -1;
    // Its failures surface as a closed connection or a failed heartbeat, and are reported there.
    conn.exceptionHandler(failure -> {});
    conn.closeHandler(v -> {
      if (conn != connection) {
        return;
      }
      connection = null;
      if (done || lease == null) {
        return; // stopping; or not claimed yet, and the claim fails on its own
      }
      lease.lost();
      publish();
      vertx.setTimer(RETRY_MILLIS, t -> retake());
    });
  }

  /**
   * After the schema is up to date: claims the database (see {@link #CLAIM}) as {@code holder} and
   * answers the new epoch, this server's fencing token. Heartbeats start now.
   */
  Future<Long> claim(String holder) {
    Promise<Long> claimed = Promise.promise();
    context.runOnContext(v -> {
      if (connection == null) {
        claimed.fail(new IllegalStateException("the connection holding the database lock closed before the claim"));
        return;
      }
      long sentAt = now();
      Tuple claim = Tuple.of(holder, System.currentTimeMillis());
      connection.preparedQuery(CLAIM).execute(claim).onComplete((rows, failure) -> {
        if (failure != null) {
          claimed.fail(failure);
          return;
        }
        Row r = rows.iterator().next();
        long epoch = r.getLong(0);
        boolean released = r.getBoolean(1) || r.getLong(2) == 0;
        lease = Lease.claimed(epoch, released, sentAt, lockedAt, leaseMillis);
        LOG.log(System.Logger.Level.INFO, "Claimed " + urlForLogs + " at epoch " + epoch + (released ? ""
            : "; its previous owner did not release it, so serving starts " + leaseMillis
                + " ms after taking the lock (recovery runs meanwhile)"));
        publish();
        heartbeat();
        claimed.complete(epoch);
      });
    });
    return claimed.future();
  }

  /** Every quarter lease, when the last heartbeat was answered: reads the epoch on the lock's connection. */
  private void heartbeat() {
    if (done) {
      return;
    }
    heartbeatTimer = vertx.setTimer(Math.max(1, leaseMillis / 4), t -> heartbeat());
    PgConnection conn = connection;
    if (conn == null || lease.state() != Lease.State.HOLDING) {
      return;
    }
    if (heartbeatSentAt >= 0) {
      // Counted in periods, not in time: after a pause, an answer waiting in the socket gets its chance.
      if (++heartbeatPeriodsWaited >= HEARTBEATS_UNANSWERED) {
        LOG.log(System.Logger.Level.WARNING, "PostgreSQL has not answered a heartbeat on the database lock's"
            + " connection for " + (now() - heartbeatSentAt) + " ms; closing it");
        conn.close();
      }
      return;
    }
    long sentAt = now();
    heartbeatSentAt = sentAt;
    heartbeatPeriodsWaited = 0;
    conn.query(EPOCH).execute().onComplete((rows, failure) -> {
      if (heartbeatSentAt == sentAt) {
        heartbeatSentAt = -1;
      }
      if (conn != connection || done) {
        return;
      }
      if (failure != null) {
        LOG.log(System.Logger.Level.WARNING, "A heartbeat on the database lock's connection failed; closing it: "
            + failure.getMessage());
        conn.close();
        return;
      }
      lease.heartbeat(sentAt, epochOf(rows));
      publish();
    });
  }

  /**
   * While suspended, once a second: takes the lock again if it is free, then reads the epoch (a
   * read after the lock, so that a claim committed before it is seen); if another session holds
   * it, reads the epoch all the same, since another server may have claimed meanwhile.
   */
  private void retake() {
    if (done || lease.state() != Lease.State.SUSPENDED) {
      return;
    }
    PgConnection.connect(vertx, options).onComplete((conn, connectFailure) -> {
      if (connectFailure != null) {
        report("Cannot reach PostgreSQL at " + urlForLogs + " to take its lock again: " + connectFailure.getMessage());
        vertx.setTimer(RETRY_MILLIS, t -> retake());
        return;
      }
      conn.query("SELECT pg_try_advisory_lock(" + OWNER_LOCK + "), (" + EPOCH + ")").execute()
          .compose(rows -> {
            Row r = rows.iterator().next();
            if (!r.getBoolean(0)) {
              lease.heldElsewhere(r.getLong(1));
              return conn.close().map(false);
            }
            long sentAt = now();
            return conn.query(EPOCH + " FOR UPDATE").execute().map(epoch -> {
              lease.retaken(sentAt, epochOf(epoch));
              return true;
            });
          })
          .onComplete((locked, failure) -> {
            if (failure == null && locked && lease.state() == Lease.State.HOLDING && !done) {
              hold(conn);
              LOG.log(System.Logger.Level.INFO, "Took the lock on " + urlForLogs + " again; nobody else owned it"
                  + " meanwhile (epoch " + lease.epoch() + ")");
            } else {
              conn.close();
              if (failure != null) {
                report("Cannot take the lock on " + urlForLogs + " again: " + failure.getMessage());
              }
            }
            publish();
            if (lease.state() == Lease.State.SUSPENDED) {
              vertx.setTimer(RETRY_MILLIS, t -> retake());
            }
          });
    });
  }

  private static long epochOf(RowSet<Row> rows) {
    return rows.iterator().next().getLong(0);
  }

  /**
   * After every change of the lease, and when its window opens or closes: publishes it for other
   * threads, tells the listener when serving starts or stops, and stops for good once fenced.
   */
  private void publish() {
    published = lease.snapshot();
    long now = now();
    boolean serving = lease.mayServe(now);
    if (lease.state() == Lease.State.FENCED && !done) {
      done = true;
      vertx.cancelTimer(heartbeatTimer);
      LOG.log(System.Logger.Level.ERROR, "Sluice stops serving " + urlForLogs + " for good: "
          + lease.notServingReason(now));
      if (connection != null) {
        connection.close();
      }
    }
    if (serving != lastServing) {
      lastServing = serving;
      if (serving) {
        LOG.log(System.Logger.Level.INFO, "Serving as the owner of " + urlForLogs + " (epoch " + lease.epoch() + ")");
      } else if (lease.state() != Lease.State.FENCED) {
        LOG.log(System.Logger.Level.WARNING, "Not serving: " + lease.notServingReason(now));
      }
      servingChanged.accept(serving);
    }
    if (lease.state() == Lease.State.FENCED) {
      fenced.tryComplete();
    }
    if (changeTimer >= 0) {
      vertx.cancelTimer(changeTimer);
      changeTimer = -1;
    }
    long next = lease.nextChangeAt(now);
    if (next != Long.MAX_VALUE && !done) {
      changeTimer = vertx.setTimer(Math.max(1, next - now), t -> {
        changeTimer = -1;
        publish();
      });
    }
  }

  /** From any thread: why this server may not serve now, or null when it may. */
  @Override
  public String notServingReason() {
    Lease l = published;
    if (l == null) {
      return "the database is not claimed yet";
    }
    long now = now();
    return l.mayServe(now) ? null : l.notServingReason(now);
  }

  /** Told, on this owner's context, each time serving starts or stops. */
  @Override
  public void onServingChanged(Consumer<Boolean> listener) {
    servingChanged = listener;
  }

  /** Completes when this server has learnt that another one claimed the database. */
  @Override
  public Future<Void> fenced() {
    return fenced.future();
  }

  /** From any thread: PostgreSQL refused a write made with {@code attemptEpoch}. */
  @Override
  public void writeRefused(long attemptEpoch) {
    context.runOnContext(v -> {
      if (lease != null) {
        lease.writeRefused(attemptEpoch);
        publish();
      }
    });
  }

  /**
   * Lets go at the end of a stop. After a {@code clean} one (everything written) the database is
   * marked released, if this server still owns it, so the next owner need not wait out the lease;
   * closing the connection releases the lock.
   */
  @Override
  public Future<Void> release(boolean clean) {
    Promise<Void> released = Promise.promise();
    context.runOnContext(v -> {
      done = true;
      vertx.cancelTimer(heartbeatTimer);
      vertx.cancelTimer(changeTimer);
      PgConnection conn = connection;
      connection = null;
      if (conn == null) {
        released.complete();
        return;
      }
      Future<?> marked = clean && lease != null && lease.state() == Lease.State.HOLDING
          ? conn.preparedQuery("UPDATE sluice_owner SET released = true WHERE id = 1 AND epoch = $1")
              .execute(Tuple.of(lease.epoch()))
          : Future.succeededFuture();
      marked.transform(ignored -> conn.close()).onComplete(ignored -> released.complete());
    });
    return released.future();
  }
}
