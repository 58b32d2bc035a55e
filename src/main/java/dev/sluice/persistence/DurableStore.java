package dev.sluice.persistence;

import dev.sluice.config.StorageConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * The PostgreSQL side of durable mode, started before the shards: the pool, the schema brought up to
 * date, and the write-behind writer. Its settings come from {@code storage}, {@code durability} and
 * {@code pg.*}.
 */
public final class DurableStore {
  private final Pool pool;
  private final PersistenceVerticle writer;
  private final StorageConfig config;

  private DurableStore(Pool pool, PersistenceVerticle writer, StorageConfig config) {
    this.pool = pool;
    this.writer = writer;
    this.config = config;
  }

  /**
   * Connects, migrates and deploys the writer. {@code scripts} are read beforehand, off the event
   * loops ({@link SchemaMigrations#load}).
   */
  public static Future<DurableStore> start(Vertx vertx, StorageConfig config, SchemaMigrations scripts) {
    Pool pool = PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(config.poolSize()).setName("sluice-pg"))
        .connectingTo(PgConnectOptions.fromUri(config.pgUrl()).setCachePreparedStatements(true)
            .setPipeliningLimit(256))
        .using(vertx)
        .build();
    PersistenceVerticle writer = new PersistenceVerticle(pool, config.batchSize(), config.flushIntervalMillis());
    return scripts.migrate(pool)
        .compose(version -> vertx.deployVerticle(writer))
        .map(id -> new DurableStore(pool, writer, config))
        .recover(failure -> pool.close().transform(closed -> Future.failedFuture(new IllegalStateException(
            "PostgreSQL at " + config.pgUrlForLogs() + " is not usable: " + failure.getMessage(), failure))));
  }

  public PersistenceVerticle writer() {
    return writer;
  }

  public StorageConfig config() {
    return config;
  }

  public Pool pool() {
    return pool;
  }
}
