package dev.sluice.engine;

import dev.sluice.model.HeadWindow;
import dev.sluice.model.MemoryBudget;
import dev.sluice.model.QueueLimit;
import dev.sluice.outbound.OutboundHttp;
import dev.sluice.persistence.DurableStore;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a {@link QueueEngine}: what its shards share, their deployments and, in durable mode on a
 * single node, the recovery of every queue, topic and trigger before the engine is handed on. Kept
 * apart from the engine, which is the facade clients call once it has started.
 */
public final class EngineStartup {
  private EngineStartup() {}

  /**
   * Deploys one shard verticle per configured shard and returns the engine once all have started;
   * {@code durable} is null in memory mode.
   */
  public static Future<QueueEngine> start(Vertx vertx, EngineSettings settings, DurableStore durable) {
    return start(vertx, settings, durable, false);
  }

  /**
   * Cluster mode: an engine over {@code settings.shards()} virtual shards, none of them deployed;
   * the node's shard manager deploys those it takes ({@link QueueEngine#takeShard}) and hands them on.
   */
  public static Future<QueueEngine> startClustered(Vertx vertx, EngineSettings settings, DurableStore durable) {
    return start(vertx, settings, durable, true);
  }

  private static Future<QueueEngine> start(Vertx vertx, EngineSettings settings, DurableStore durable,
      boolean clustered) {
    MemoryBudget budget = new MemoryBudget(settings.memoryBudgetBytes());
    QueueLimit queueLimit = new QueueLimit(settings.maxQueues());
    QueueLimit topicLimit = new QueueLimit(settings.maxTopics());
    QueueLimit triggerLimit = new QueueLimit(settings.maxTriggers());
    byte[] receiptSecret = new byte[32];
    if (durable != null) {
      receiptSecret = durable.receiptKey();
    } else {
      new SecureRandom().nextBytes(receiptSecret);
    }
    boolean eventBus = "eventbus".equals(settings.dispatch());
    if (eventBus) {
      EventBusDispatcher.registerCodec(vertx);
    }
    MonotonicClock clock = new MonotonicClock();
    ShardRouter router = new ShardRouter(settings.shards());
    CrossShard crossShard = new CrossShard(router);
    ShardSlots slots = new ShardSlots(settings.shards());
    ShardDeployments deployments = new ShardDeployments(vertx, settings, budget, queueLimit, topicLimit, triggerLimit,
        receiptSecret, eventBus, clock, crossShard, durable, router, slots);
    ShardTenure tenure = durable == null ? ShardTenure.MEMORY : ShardTenure.ofDatabase(durable.run(), durable.epoch());
    List<Future<ShardVerticle>> deployed = new ArrayList<>();
    for (int i = 0; i < (clustered ? 0 : settings.shards()); i++) {
      deployed.add(deployments.deploy(i, tenure, null));
    }
    ShardDispatcher dispatcher =
        eventBus ? new EventBusDispatcher(vertx, settings.shards()) : new DirectDispatcher(vertx, slots);
    crossShard.connect(dispatcher);
    ServingGate gate = durable == null ? ServingGate.OPEN : new ShardGate(durable::notServingReason, slots);
    TopicSigner signer = TopicSigner.of(vertx, clustered ? null : durable);
    Future<QueueEngine> started =
        Future.all(deployed).map(done -> new QueueEngine(dispatcher, gate, router, crossShard, budget,
            new QueueAccess(settings.permissions()), slots, deployments, durable, signer, vertx,
            new OutboundHttp(vertx, EventLoops.newEventLoopContext(vertx), settings.outbound())));
    if (durable == null || clustered) {
      return started;
    }
    // Everything comes back before the engine is handed to the HTTP front.
    return started.compose(engine -> new Recovery(dispatcher, router,
        durable.config().paged() ? HeadWindow.of(durable.config().headWindowMessages()) : null, clock)
        .run(durable.pool(), tenure.fence())
        .compose(recovered -> TopicRecovery.run(durable.pool(), dispatcher, router)
            .compose(topics -> TriggerRecovery.run(durable.pool(), dispatcher, router, shard -> true).map(triggers -> {
              System.getLogger(QueueEngine.class.getName()).log(System.Logger.Level.INFO, "Recovered " + recovered
                  + ", " + topics + ", " + triggers);
              return engine;
            }))));
  }
}
