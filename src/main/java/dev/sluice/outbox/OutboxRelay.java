package dev.sluice.outbox;

import dev.sluice.config.OutboxSource;
import dev.sluice.metrics.OutboxMetrics;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The relay of one outbox source; everything here runs on this verticle's event loop (the status
 * fields are volatile or atomic for the admin API, which reads them from its own). One session of
 * its own to the source's database LISTENs and holds the lease (pg_try_advisory_lock), and runs the
 * rounds ({@link RoundTransaction}); a small pool reads the lag and reconciles. Without the lease it
 * stands by, trying again every poll interval; when the database fails it, it backs off and starts
 * over. A round runs on a NOTIFY, on each poll, and at once after a round that read a full batch.
 */
final class OutboxRelay extends VerticleBase {
  private static final System.Logger LOG = System.getLogger(OutboxRelay.class.getName());
  /** How often the lag is read, and receipts reconciled, while relaying. */
  static final long LAG_SAMPLE_MILLIS = 5_000;
  static final long RECONCILE_MILLIS = 60_000;
  /** A statement on the lease's session pending this long means the session is dead: it is closed. */
  static final long STUCK_MILLIS = 60_000;

  enum State { UNREACHABLE, STANDBY, RELAYING, STOPPED }

  private final OutboxSource source;
  private final OutboxSql sql;
  private final RelayTarget target;
  private final OutboxMetrics metrics;
  private final Backoff backoff = new Backoff(() -> ThreadLocalRandom.current().nextDouble());
  private final AtomicLong relayed = new AtomicLong();
  private final AtomicLong dead = new AtomicLong();
  private final AtomicLong retried = new AtomicLong();
  private final AtomicLong notifyWakeups = new AtomicLong();
  private final AtomicLong pollWakeups = new AtomicLong();
  private volatile State state = State.UNREACHABLE;
  private volatile String lastError;
  private volatile double oldestAgeSeconds;
  private OutboxMetrics.Recorder recorder;
  private PgConnectOptions options;
  private Pool pool;
  private RoundTransaction rounds;
  private Reconciler reconciler;
  /** The lease's session; null while there is none. */
  private PgConnection session;
  /** When the statement pending on the session began (System.nanoTime), 0 when none is. */
  private long busySince;
  /** The fencing token of the lease held (RelaySend): the database's transaction id when it was taken. */
  private long epoch;
  /**
   * Destinations whose last call failed for now, until when (System.nanoTime): rounds pass over
   * their rows meanwhile, so one unavailable queue does not hold up every row behind its own.
   */
  private final Map<Destination, Long> resting = new HashMap<>();
  private boolean roundRunning;
  private boolean roundWanted;
  /** No round before this (System.nanoTime): a failed round backs off. */
  private long roundsPausedUntil;
  private Promise<Void> roundsStopped;

  OutboxRelay(OutboxSource source, RelayTarget target, OutboxMetrics metrics) {
    this.source = source;
    this.sql = new OutboxSql(source.table());
    this.target = target;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    options = OutboxConnections.options(source);
    pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(2).setName("sluice-outbox-" + source.name()))
        .connectingTo(options).using(vertx).build();
    rounds = new RoundTransaction(sql, new RoundSender(target), source.batchSize());
    reconciler = new Reconciler(target, sql, source.accountId(), source.region());
    recorder = metrics.recorder(source.name(), () -> oldestAgeSeconds, () -> state == State.RELAYING);
    vertx.setPeriodic(source.pollIntervalMillis(), t -> onPoll());
    vertx.setPeriodic(LAG_SAMPLE_MILLIS, t -> sampleLag());
    vertx.setPeriodic(RECONCILE_MILLIS, t -> reconcile());
    connect();
    // Started at once: an application database that is down must not keep Sluice from serving.
    return Future.succeededFuture();
  }

  private void connect() {
    if (state == State.STOPPED) {
      return;
    }
    PgConnection.connect(vertx, options).compose(conn -> {
      session = conn;
      conn.closeHandler(v -> lost(conn, "the connection closed"));
      conn.exceptionHandler(e -> lastError = OutboxConnections.redacted(source, e.getMessage()));
      if (source.notifyChannel().isEmpty()) {
        return Future.succeededFuture(conn);
      }
      conn.notificationHandler(n -> wake(true));
      // Watched as any statement on the session: a LISTEN that never answers closes it.
      return onSession(conn.query(OutboxSql.listen(source.notifyChannel())).execute()).map(listening -> conn);
    }).onComplete((conn, failure) -> {
      if (failure != null) {
        if (session != null) {
          lastError = OutboxConnections.redacted(source, failure.getMessage());
          session.close();
        } else {
          unreachable(failure.getMessage());
        }
      } else if (state == State.STOPPED) {
        conn.close();
      } else {
        tryLease();
      }
    });
  }

  private void tryLease() {
    PgConnection conn = session;
    onSession(conn.preparedQuery(OutboxSql.tryLease()).execute(Tuple.of(OutboxSql.leaseKey(source.table()))))
        .onComplete((rows, failure) -> {
          if (failure != null || conn != session || state == State.STOPPED) {
            if (failure != null) {
              lastError = OutboxConnections.redacted(source, failure.getMessage());
              conn.close();
            }
            return;
          }
          backoff.reset();
          roundsPausedUntil = 0;
          if (!rows.iterator().next().getBoolean(0)) {
            state = State.STANDBY;
            return;
          }
          epoch = rows.iterator().next().getLong(1);
          LOG.log(System.Logger.Level.INFO, "Outbox " + source.name() + ": relaying " + source.table() + " of "
              + where());
          state = State.RELAYING;
          Future<?> created = source.createTable()
              // Without notices: each CREATE ... IF NOT EXISTS of a table already there would be logged as a warning.
              ? onSession(conn.query("SET client_min_messages TO warning; "
                  + OutboxSql.ddl(OutboxSql.shippedDdl(), source.table(), source.notifyChannel())).execute()).onFailure(e -> lastError = "createTable: " + OutboxConnections.redacted(source,
                      e.getMessage()))
              : Future.succeededFuture();
          created.onComplete(done -> {
            reconcile();
            wake(false);
          });
        });
  }

  /** The session {@code conn} is gone, and the lease with it: start over after a back-off. */
  private void lost(PgConnection conn, String why) {
    if (conn != session) {
      return;
    }
    session = null;
    busySince = 0;
    // The last error may be a round's (the engine refusing for a while), not the database's: named apart.
    unreachable(lastError == null ? why : why + " (last error: " + lastError + ")");
  }

  private void unreachable(String why) {
    if (state == State.STOPPED) {
      return;
    }
    if (state != State.UNREACHABLE || backoff.failures() == 0) {
      LOG.log(System.Logger.Level.WARNING, "Outbox " + source.name() + ": " + where() + " unreachable, trying again"
          + " with a back-off: " + OutboxConnections.redacted(source, why));
    }
    state = State.UNREACHABLE;
    oldestAgeSeconds = 0;
    lastError = OutboxConnections.redacted(source, why);
    vertx.setTimer(backoff.next(), t -> connect());
  }

  private void onPoll() {
    if (busySince != 0 && System.nanoTime() - busySince > STUCK_MILLIS * 1_000_000 && session != null) {
      lastError = "a statement got no answer for " + STUCK_MILLIS / 1000 + " s";
      session.close();
    } else if (state == State.STANDBY && session != null && busySince == 0) {
      tryLease();
    } else if (state == State.RELAYING) {
      wake(false);
    }
  }

  private void wake(boolean notified) {
    if (state != State.RELAYING) {
      return;
    }
    (notified ? notifyWakeups : pollWakeups).incrementAndGet();
    recorder.wokenUp(notified);
    runRound();
  }

  private void runRound() {
    if (roundRunning) {
      roundWanted = true;
      return;
    }
    if (state != State.RELAYING || session == null || System.nanoTime() < roundsPausedUntil) {
      return;
    }
    roundRunning = true;
    roundWanted = false;
    PgConnection conn = session;
    long now = System.nanoTime();
    resting.values().removeIf(until -> until - now <= 0);
    onSession(rounds.run(conn, epoch, List.copyOf(resting.keySet()))).onComplete((done, failure) -> {
      roundRunning = false;
      if (failure != null) {
        lastError = OutboxConnections.redacted(source, failure.getMessage());
        roundsPausedUntil = System.nanoTime() + backoff.next() * 1_000_000;
      } else {
        settled(done.outcome());
        backoff.reset();
        // A full batch: more may wait (the destinations that kept rows now rest, so not theirs).
        roundWanted |= done.rowsRead() == source.batchSize();
      }
      if (roundsStopped != null) {
        roundsStopped.tryComplete();
      } else if (roundWanted) {
        runRound();
      }
    });
  }

  /** A round committed: count it, and let the queues forget the receipts of the rows deleted. */
  private void settled(RoundOutcome outcome) {
    long restUntil = System.nanoTime() + source.pollIntervalMillis() * 1_000_000;
    outcome.stopped().forEach(d -> resting.put(d, restUntil));
    relayed.addAndGet(outcome.deleted().size());
    dead.addAndGet(outcome.dead().size());
    retried.addAndGet(outcome.kept());
    recorder.relayed(outcome.deleted().size());
    recorder.dead(outcome.dead().size());
    recorder.retried(outcome.kept());
    if (outcome.lastFailure() != null) {
      lastError = outcome.lastFailure();
    }
    outcome.stored().forEach((to, ids) -> target.forget(to, epoch, List.copyOf(ids)).onFailure(e ->
        // Harmless: the next reconcile forgets them, their rows being gone.
        LOG.log(System.Logger.Level.DEBUG, "Outbox " + source.name() + ": a forget failed: " + e.getMessage())));
  }

  private void sampleLag() {
    if (state != State.RELAYING) {
      return;
    }
    pool.query(sql.oldestAge()).execute().onSuccess(rows -> {
      Double age = rows.size() == 0 ? null : rows.iterator().next().getDouble(0); // no row: empty
      oldestAgeSeconds = age == null ? 0 : Math.max(0, age);
    });
  }

  private void reconcile() {
    if (state != State.RELAYING) {
      return;
    }
    reconciler.run(pool, epoch).onComplete((forgotten, failure) -> {
      if (failure != null) {
        LOG.log(System.Logger.Level.DEBUG, "Outbox " + source.name() + ": reconciling failed: "
            + OutboxConnections.redacted(source, failure.getMessage()));
      } else if (forgotten > 0) {
        LOG.log(System.Logger.Level.INFO, "Outbox " + source.name() + ": forgot " + forgotten + " receipts of rows"
            + " deleted before their forget was sent");
      }
    });
  }

  /** Marks the session busy until {@code pending} completes, so that a session that stopped answering is seen. */
  private <T> Future<T> onSession(Future<T> pending) {
    busySince = System.nanoTime();
    return pending.andThen(done -> busySince = 0);
  }

  private String where() {
    return "postgresql://" + source.host() + ":" + source.port() + "/" + source.database();
  }

  /** Stops: no new round; the one running finishes (its commit or rollback), then the sessions close. */
  @Override
  public Future<?> stop() {
    state = State.STOPPED;
    roundsStopped = Promise.promise();
    if (!roundRunning) {
      roundsStopped.complete();
    }
    return roundsStopped.future().transform(done -> {
      recorder.close();
      Future<Void> closed = session == null ? Future.succeededFuture() : session.close();
      return Future.join(closed, pool.close()).mapEmpty();
    });
  }

  /** What the admin API shows; read from any thread. */
  OutboxStatus status() {
    return new OutboxStatus(source.name(), source.table(), source.host(), source.port(), source.database(),
        source.accountId(), source.region(), state.name().toLowerCase(java.util.Locale.ROOT), lastError,
        relayed.get(), dead.get(), retried.get(), notifyWakeups.get(), pollWakeups.get(), oldestAgeSeconds);
  }
}
