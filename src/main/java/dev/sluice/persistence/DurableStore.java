package dev.sluice.persistence;

import dev.sluice.config.StorageConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The PostgreSQL side of durable mode, started before the shards: the pool, the schema brought up to
 * date, and the write-behind writer. Its settings come from {@code storage}, {@code durability} and
 * {@code pg.*}.
 */
public final class DurableStore {
  private final Pool pool;
  private final PersistenceVerticle writer;
  private final StorageConfig config;
  private final byte[] receiptKey;
  private final Vertx vertx;
  private final String writerDeployment;
  private final long run;
  private final DatabaseOwnership owner;

  private DurableStore(Vertx vertx, Pool pool, PersistenceVerticle writer, String writerDeployment,
      StorageConfig config, byte[] receiptKey, long run, DatabaseOwnership owner) {
    this.owner = owner;
    this.run = run;
    this.vertx = vertx;
    this.pool = pool;
    this.writer = writer;
    this.writerDeployment = writerDeployment;
    this.config = config;
    this.receiptKey = receiptKey;
  }

  /** Transactions the writer runs at once: all connections but one, left for pruning and reads. */
  static int writeTransactions(int poolSize) {
    return Math.max(1, poolSize - 1);
  }

  static final String RECEIPT_KEY = "receipt-hmac-key";

  /**
   * Connects, migrates and deploys the writer. {@code scripts} are read beforehand, off the event
   * loops ({@link SchemaMigrations#load}).
   */
  public static Future<DurableStore> start(Vertx vertx, StorageConfig config, SchemaMigrations scripts,
      MeterRegistry metrics) {
    Pool pool = PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(config.poolSize()).setName("sluice-pg"))
        .connectingTo(PgConnectOptions.fromUri(config.pgUrl()).setCachePreparedStatements(true)
            .setPipeliningLimit(256))
        .using(vertx)
        .build();
    PersistenceVerticle writer = new PersistenceVerticle(pool, config.batchSize(), config.flushIntervalMillis(),
        writeTransactions(config.poolSize()), metrics);
    byte[] fresh = new byte[32];
    new SecureRandom().nextBytes(fresh);
    AtomicReference<DatabaseOwnership> owner = new AtomicReference<>();
    // The receipt-handle key is made once and kept, so handles issued before a restart stay valid.
    return DatabaseOwnership.acquire(vertx, PgConnectOptions.fromUri(config.pgUrl()), config.pgUrlForLogs())
        .compose(held -> {
          owner.set(held);
          return scripts.migrate(pool);
        })
        .compose(version -> pool.preparedQuery("INSERT INTO sluice_settings (name, value) VALUES ($1, $2)"
            + " ON CONFLICT (name) DO NOTHING").execute(Tuple.of(RECEIPT_KEY, Buffer.buffer(fresh))))
        .compose(inserted -> pool.preparedQuery("SELECT value, nextval('sluice_runs') FROM sluice_settings"
            + " WHERE name = $1").execute(Tuple.of(RECEIPT_KEY)))
        .compose(rows -> vertx.deployVerticle(writer)
            .map(id -> new DurableStore(vertx, pool, writer, id, config, rows.iterator().next().getBuffer(0).getBytes(),
                rows.iterator().next().getLong(1), owner.get())))
        .onSuccess(store -> {
          store.pruneDeduplicationHistory(vertx);
          store.probeReachability(vertx);
        })
        .recover(failure -> (owner.get() == null ? Future.<Void>succeededFuture() : owner.get().release())
            .transform(released -> pool.close())
            .transform(closed -> Future.failedFuture(new IllegalStateException(
            "PostgreSQL at " + config.pgUrlForLogs() + " is not usable: " + failure.getMessage(), failure))));
  }

  /**
   * Stops the writer, which first writes what it still holds. Closing Vert.x alone would close the
   * pool and the writer at the same time and lose the writer's last batches; Vert.x closes the pool
   * afterwards.
   */
  public Future<Void> stop(long drainMillis) {
    writer.drainFor(drainMillis);
    // The lock goes last: another server may take over only once everything is written.
    return vertx.undeploy(writerDeployment).eventually(owner::release);
  }

  /**
   * This run's number, one more than the last start's (a sequence: never handed out twice, even
   * across crashes); message keys of different runs never meet.
   */
  public long run() {
    return run;
  }

  public PersistenceVerticle writer() {
    return writer;
  }

  public StorageConfig config() {
    return config;
  }

  static final long PRUNE_INTERVAL_MILLIS = 60_000;

  /**
   * FIFO deduplication rows are only needed for five minutes; once a minute the expired ones go
   * (the queues forget them in memory on their own). A failed prune is retried a minute later.
   */
  private void pruneDeduplicationHistory(Vertx vertx) {
    vertx.setPeriodic(PRUNE_INTERVAL_MILLIS, id -> pool
        .preparedQuery("DELETE FROM sluice_dedup WHERE expires_at < $1")
        .execute(Tuple.of(System.currentTimeMillis())));
  }

  static final long PROBE_INTERVAL_MILLIS = 1000;
  /** Without a successful probe for this long, PostgreSQL counts as unreachable. */
  static final long UNREACHABLE_AFTER_MILLIS = 3000;
  private volatile long lastReachedNanos = System.nanoTime();
  private volatile String lastProbeFailure = "";

  /** Asks PostgreSQL every second whether it answers, for readiness. */
  private void probeReachability(Vertx vertx) {
    vertx.setPeriodic(PROBE_INTERVAL_MILLIS, id -> pool.query("SELECT 1").execute().onComplete((ok, failure) -> {
      if (failure == null) {
        lastReachedNanos = System.nanoTime();
      } else {
        lastProbeFailure = failure.getMessage();
      }
    }));
  }

  /** Why this server is not ready (PostgreSQL unreachable), or null when it is. */
  public String notReadyReason() {
    long silentMillis = (System.nanoTime() - lastReachedNanos) / 1_000_000;
    return silentMillis < UNREACHABLE_AFTER_MILLIS ? null
        : "PostgreSQL at " + config.pgUrlForLogs() + " has not answered for " + silentMillis + " ms"
            + (lastProbeFailure.isEmpty() ? "" : ": " + lastProbeFailure);
  }

  /** The receipt-handle HMAC key, the same across restarts. */
  public byte[] receiptKey() {
    return receiptKey.clone();
  }

  public Pool pool() {
    return pool;
  }
}
