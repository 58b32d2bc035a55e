package dev.sluice;

import dev.sluice.config.EngineConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.engine.EngineSettings;
import dev.sluice.engine.QueueEngine;
import dev.sluice.persistence.DurableStore;
import dev.sluice.persistence.SchemaMigrations;
import dev.sluice.http.HttpFrontend;
import dev.sluice.push.PushBridges;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * A running Sluice server: its Vert.x instance, the engine and the HTTP front. Boot order: Vert.x,
 * shards, then HTTP, so no request arrives before its shard exists.
 */
public final class Sluice {
  private final Vertx vertx;
  private final QueueEngine engine;
  private final int port;
  private final DurableStore durable;

  private Sluice(Vertx vertx, QueueEngine engine, int port, DurableStore durable) {
    this.vertx = vertx;
    this.engine = engine;
    this.port = port;
    this.durable = durable;
  }

  public static Future<Sluice> start(SluiceConfig cfg) {
    // One loop per core by default: nothing here blocks, so extra loops only add hops (measured).
    int loops = cfg.engine().eventLoops() > 0 ? cfg.engine().eventLoops() : Runtime.getRuntime().availableProcessors();
    Vertx vertx = Vertx.builder()
        .with(new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true))
        .build();
    EngineSettings settings = engineSettings(cfg, loops);
    int httpInstances = cfg.http().instances() > 0 ? cfg.http().instances() : loops;
    // The schema scripts are read here, on the calling thread, before anything runs on a loop.
    Future<DurableStore> durable = cfg.storage().durable()
        ? DurableStore.start(vertx, cfg.storage(), SchemaMigrations.load())
        : Future.succeededFuture(null);
    return durable
        .compose(store -> QueueEngine.start(vertx, settings, store)
            .compose(engine -> (cfg.push().enabled() ? PushBridges.start(vertx, engine, cfg.push())
                    : Future.<PushBridges>succeededFuture(null))
                .compose(push -> HttpFrontend.deploy(vertx, cfg.http(), httpInstances, engine, cfg.sqs().accountId(), push,
                    store == null ? () -> null : store::notReadyReason))
                .map(port -> new Sluice(vertx, engine, port, store))))
        .recover(failure -> vertx.close().transform(ignored -> Future.failedFuture(failure)));
  }

  static EngineSettings engineSettings(SluiceConfig cfg, int loops) {
    EngineConfig e = cfg.engine();
    long budget = e.memoryBudgetBytes() > 0 ? e.memoryBudgetBytes() : Runtime.getRuntime().maxMemory() / 2;
    return new EngineSettings(
        e.shards() > 0 ? e.shards() : loops,
        e.dispatch(),
        budget,
        e.maxParkedReceives(),
        e.maxParkedReceivesPerQueue(),
        e.maxInflightPerQueue(),
        cfg.sqs().accountId(),
        cfg.sqs().region());
  }

  public int port() {
    return port;
  }

  public QueueEngine engine() {
    return engine;
  }

  public Vertx vertx() {
    return vertx;
  }

  /** Stops; in durable mode the writer first writes what it still holds. */
  public Future<Void> stop() {
    if (durable == null) {
      return vertx.close();
    }
    // Vert.x is closed from a thread of its own: a listener on the writer's undeployment runs on an
    // event loop, and a future completed there after Vert.x has closed would never be delivered.
    Promise<Void> stopped = Promise.promise();
    durable.stop().toCompletionStage().whenCompleteAsync((ok, failure) -> vertx.close().onComplete(stopped));
    return stopped.future();
  }

}
