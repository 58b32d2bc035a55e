package dev.sluice.persistence;

import dev.sluice.config.SqsConfig;
import dev.sluice.config.StorageConfig;
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
import java.util.function.Consumer;

/**
 * The PostgreSQL side of durable mode, started before the shards: the pool, the schema brought up to
 * date, and the write-behind writer. Its settings come from {@code storage}, {@code durability} and
 * {@code pg.*}.
 */
public final class DurableStore {
  private static final System.Logger LOG = System.getLogger(DurableStore.class.getName());

  private final Pool pool;
  private final Pool readPool;
  private final PersistenceVerticle writer;
  private final StorageConfig config;
  private final byte[] receiptKey;
  private final Vertx vertx;
  private final String writerDeployment;
  private final long run;
  private final DatabaseHold owner;
  private final Reaper reaper;
  private final PgConnectOptions options;

  private DurableStore(Vertx vertx, Pool pool, Pool readPool, PersistenceVerticle writer, String writerDeployment,
      StorageConfig config, byte[] receiptKey, long run, DatabaseHold owner, PgConnectOptions options) {
    this.owner = owner;
    this.options = options;
    this.readPool = readPool;
    this.reaper = new Reaper(vertx, pool, writer.fence().epoch(), owner::writeRefused);
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
   * The longest SQL text the client keeps prepared. Its default (2,048 characters) is shorter than
   * the writer's message statement, which would then be parsed and planned again for every batch:
   * measured, half the throughput of durable sends.
   */
  static final int STATEMENT_CACHE_SQL_LIMIT = 16_384;

  /** Claims a setting (the receipt-handle key, the SNS signing key) if none is stored yet; fenced like every write. */
  static final String INSERT_RECEIPT_KEY = "WITH f AS (SELECT sluice_fence($3) AS epoch)"
      + " INSERT INTO sluice_settings (name, value) SELECT $1, $2 FROM f ON CONFLICT (name) DO NOTHING";

  /**
   * Takes the database (waiting while another server holds it), migrates it, claims it, gives the
   * queues an earlier schema stored without an account and region the defaults of {@code sqs}, and
   * deploys the writer. {@code scripts} are read beforehand, off the event loops
   * ({@link SchemaMigrations#load}).
   */
  public static Future<DurableStore> start(Vertx vertx, StorageConfig config, SqsConfig sqs, SchemaMigrations scripts,
      BatchObserver batches) {
    String holder = holder();
    PgConnectOptions options = options(config, holder);
    Pool pool = pool(vertx, options, config.poolSize(), "sluice-pg");
    AtomicReference<DatabaseOwnership> owner = new AtomicReference<>();
    // Migrations run only while this server holds the lock, and the claim only once they are done.
    return DatabaseOwnership.acquire(vertx, options, config.pgUrlForLogs(), config.leaseMillis())
        .compose(held -> {
          owner.set(held);
          return scripts.migrate(pool);
        })
        .compose(version -> owner.get().claim(holder))
        .compose(epoch -> open(vertx, config, sqs, batches, options, pool, owner.get(), epoch))
        .recover(failure -> (owner.get() == null ? Future.<Void>succeededFuture() : owner.get().release(false))
            .transform(released -> pool.close())
            .transform(closed -> Future.failedFuture(unusable(config, failure))));
  }

  /**
   * Cluster mode: joins the cluster on the database its nodes share (see {@link ClusterDatabase}),
   * waiting while a single-node server holds it, and deploys the writer, which fences each write by
   * the leases of the shards it is for. No shard is held yet.
   */
  public static Future<DurableStore> startClustered(Vertx vertx, StorageConfig config, SqsConfig sqs,
      SchemaMigrations scripts, BatchObserver batches, ClusterJoin join) {
    PgConnectOptions options = options(config, join.holder() + " node " + join.nodeId());
    Pool pool = pool(vertx, options, config.poolSize(), "sluice-pg");
    return ClusterDatabase.join(vertx, options, config.pgUrlForLogs(), scripts, pool, join)
        .compose(db -> open(vertx, config, sqs, batches, options, pool, db, db.epoch())
            .recover(failure -> db.release(false).transform(v -> Future.failedFuture(failure))))
        .recover(failure -> pool.close().transform(closed -> Future.failedFuture(unusable(config, failure))));
  }

  private static IllegalStateException unusable(StorageConfig config, Throwable failure) {
    return new IllegalStateException("PostgreSQL at " + config.pgUrlForLogs() + " is not usable: "
        + failure.getMessage(), failure);
  }

  /** Named after the holder, so that pg_stat_activity tells which server a session belongs to. */
  private static PgConnectOptions options(StorageConfig config, String holder) {
    return PgConnectOptions.fromUri(config.pgUrl()).addProperty("application_name", "sluice " + holder)
        // Every statement Sluice runs is short and index-bound, but some are estimated costly
        // (lateral joins at start-up): JIT compiling them took 300 ms for a 2 ms query.
        .addProperty("jit", "off");
  }

  /**
   * With the database held at {@code epoch}: the queues stored without an account and region get
   * the defaults of {@code sqs}, the receipt-handle key is made once and kept, a run is taken, and
   * the writer is deployed.
   */
  private static Future<DurableStore> open(Vertx vertx, StorageConfig config, SqsConfig sqs, BatchObserver batches,
      PgConnectOptions options, Pool pool, DatabaseHold owner, long epoch) {
    // Page reads (pg.headWindowMessages) have connections of their own, so that a receive waiting
    // for a page never queues behind the writer's batches. Connections are opened on first use:
    // with paging off, none is.
    Pool readPool = pool(vertx, options, config.readPoolSize(), "sluice-pg-read");
    byte[] fresh = new byte[32];
    new SecureRandom().nextBytes(fresh);
    WriteFence fence = new WriteFence(epoch, config.leaseMillis(), owner::writeRefused);
    PersistenceVerticle writer = new PersistenceVerticle(pool, fence, config.batchSize(), config.flushIntervalMillis(),
        writeTransactions(config.poolSize()), batches);
    return UnownedQueues.adopt(pool, epoch, sqs.accountId(), sqs.region()).compose(adopted -> {
          if (adopted > 0) {
            LOG.log(System.Logger.Level.INFO, adopted + " queues stored without an account and region now belong"
                + " to account " + sqs.accountId() + " in " + sqs.region());
          }
          // The receipt-handle key is made once and kept, so handles issued before a restart stay valid.
          return pool.preparedQuery(INSERT_RECEIPT_KEY).execute(Tuple.of(RECEIPT_KEY, Buffer.buffer(fresh), epoch));
        })
        .compose(inserted -> pool.preparedQuery("SELECT value, nextval('sluice_runs') FROM sluice_settings"
            + " WHERE name = $1").execute(Tuple.of(RECEIPT_KEY)))
        .compose(rows -> vertx.deployVerticle(writer).map(id -> new DurableStore(vertx, pool, readPool,
            writer, id, config, rows.iterator().next().getBuffer(0).getBytes(), rows.iterator().next().getLong(1),
            owner, options)))
        .onSuccess(store -> {
          store.pruneDeduplicationHistory(vertx);
          store.reaper.start();
          store.probeReachability(vertx);
        })
        .recover(failure -> readPool.close().transform(closed -> Future.failedFuture(failure)));
  }

  /** A pool whose connections keep statements prepared, however long their SQL. */
  private static Pool pool(Vertx vertx, PgConnectOptions options, int size, String name) {
    return PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(size).setName(name))
        .connectingTo(new PgConnectOptions(options).setCachePreparedStatements(true)
            .setPreparedStatementCacheSqlLimit(STATEMENT_CACHE_SQL_LIMIT).setPipeliningLimit(256))
        .using(vertx)
        .build();
  }

  /** Who holds the database, as sluice_owner shows it to people: the host (when known) and the process. */
  private static String holder() {
    String host = System.getenv("HOSTNAME");
    return (host == null || host.isEmpty() ? "" : host + " ") + "pid " + ProcessHandle.current().pid();
  }

  /**
   * Stops the writer, which first writes what it still holds. Closing Vert.x alone would close the
   * pool and the writer at the same time and lose the writer's last batches; Vert.x closes the pool
   * afterwards. {@code requestsFinished}: no client request is still under way.
   */
  public Future<Void> stop(long drainMillis, boolean requestsFinished) {
    writer.drainFor(drainMillis);
    reaper.stop();
    // The lock goes last: another server may take over only once everything is written. Only after
    // a stop with nothing left over (no request under way, nothing unwritten) is the database
    // marked released, which spares the next owner the wait of a lease.
    return vertx.undeploy(writerDeployment)
        .eventually(() -> owner.release(requestsFinished && writer.pendingChanges() == 0));
  }

  /**
   * This run's number, one more than the last start's (a sequence: never handed out twice, even
   * across crashes); message keys of different runs never meet.
   */
  public long run() {
    return run;
  }

  /**
   * A new run, for a shard deployed again (loaded after a hand-over): its message keys start above
   * every key the shard had, as a restart's do.
   */
  public Future<Long> nextRun() {
    return pool.query("SELECT nextval('sluice_runs')").execute().map(rows -> rows.iterator().next().getLong(0));
  }

  /** This server's fencing token: every write it makes carries it. */
  public long epoch() {
    return writer.fence().epoch();
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
    long epoch = writer.fence().epoch();
    vertx.setPeriodic(PRUNE_INTERVAL_MILLIS, id -> pool.preparedQuery(PRUNE)
        .execute(Tuple.of(System.currentTimeMillis(), epoch))
        .onFailure(failure -> {
          if (BatchWriter.fenced(failure)) {
            owner.writeRefused(epoch);
          }
        }));
  }

  /** Expired deduplication rows, fenced: the delete joins the fence's row, so it reads it. */
  static final String PRUNE = "WITH f AS (SELECT sluice_fence($2) AS epoch)"
      + " DELETE FROM sluice_dedup USING f WHERE expires_at < $1";

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

  /**
   * From any thread: why this server may not serve client calls now (it does not own its database,
   * or cannot prove it: see {@link DatabaseOwnership}), or null when it may.
   */
  public String notServingReason() {
    return owner.notServingReason();
  }

  /** Told, on the owner's context, each time serving starts (true) or stops (false). */
  public void onServingChanged(Consumer<Boolean> listener) {
    owner.onServingChanged(listener);
  }

  /** Completes when another server has claimed the database: this one will never serve again. */
  public Future<Void> fenced() {
    return owner.fenced();
  }

  /** Why this server is not ready (not serving, or PostgreSQL unreachable), or null when it is. */
  public String notReadyReason() {
    String owning = notServingReason();
    if (owning != null) {
      return "Sluice does not serve while it cannot show that it owns its PostgreSQL database ("
          + config.pgUrlForLogs() + "): " + owning;
    }
    long silentMillis = (System.nanoTime() - lastReachedNanos) / 1_000_000;
    return silentMillis < UNREACHABLE_AFTER_MILLIS ? null
        : "PostgreSQL at " + config.pgUrlForLogs() + " has not answered for " + silentMillis + " ms"
            + (lastProbeFailure.isEmpty() ? "" : ": " + lastProbeFailure);
  }

  /** The receipt-handle HMAC key, the same across restarts. */
  public byte[] receiptKey() {
    return receiptKey.clone();
  }

  /** How this server connects to PostgreSQL, for a connection of its own (a cluster node's leases). */
  public PgConnectOptions connectOptions() {
    return new PgConnectOptions(options);
  }

  /**
   * The value of the server-wide setting {@code name}: {@code ifAbsent} is stored if the setting has
   * none yet (fenced like every write), and what is stored is answered, so that every restart
   * keeps what the first start made.
   */
  public Future<byte[]> setting(String name, byte[] ifAbsent) {
    return pool.preparedQuery(INSERT_RECEIPT_KEY).execute(Tuple.of(name, Buffer.buffer(ifAbsent), epoch()))
        .compose(inserted -> pool.preparedQuery("SELECT value FROM sluice_settings WHERE name = $1")
            .execute(Tuple.of(name)))
        .map(rows -> rows.iterator().next().getBuffer(0).getBytes());
  }

  public Pool pool() {
    return pool;
  }

  /** The pool for reading back pages of messages held in PostgreSQL only (pg.readPoolSize). */
  public Pool readPool() {
    return readPool;
  }
}
