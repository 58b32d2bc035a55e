package dev.sluice.engine;

import dev.sluice.model.HeadWindow;
import dev.sluice.model.MemoryBudget;
import dev.sluice.model.QueueLimit;
import dev.sluice.persistence.DurableStore;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deploys a shard's verticle for a {@link ShardTenure}, loads its queues from PostgreSQL, and
 * drains and undeploys it again: the steps by which a shard changes hands, which in cluster mode
 * move it between nodes and which a single-node server can run on itself
 * ({@link QueueEngine#reloadShard}). Each deployment gets its own event-loop context, assigned
 * round-robin over the loops; its slot in {@link ShardSlots} says whether client calls may run.
 */
final class ShardDeployments {
  private static final System.Logger LOG = System.getLogger(ShardDeployments.class.getName());

  private final Vertx vertx;
  private final EngineSettings settings;
  private final MemoryBudget budget;
  private final QueueLimit queueLimit;
  private final QueueLimit topicLimit;
  private final QueueLimit triggerLimit;
  private final byte[] receiptSecret;
  private final boolean eventBus;
  private final MonotonicClock clock;
  private final CrossShard crossShard;
  private final DurableStore durable;
  private final ShardRouter router;
  private final ShardSlots slots;
  /** Per shard, the id of its deployment and the tenure it holds; written on deploy, read anywhere. */
  private final ConcurrentHashMap<Integer, String> deploymentIds = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, ShardTenure> tenures = new ConcurrentHashMap<>();

  ShardDeployments(Vertx vertx, EngineSettings settings, MemoryBudget budget, QueueLimit queueLimit,
      QueueLimit topicLimit, QueueLimit triggerLimit, byte[] receiptSecret, boolean eventBus, MonotonicClock clock, CrossShard crossShard, DurableStore durable,
      ShardRouter router, ShardSlots slots) {
    this.vertx = vertx;
    this.settings = settings;
    this.budget = budget;
    this.queueLimit = queueLimit;
    this.topicLimit = topicLimit;
    this.triggerLimit = triggerLimit;
    this.receiptSecret = receiptSecret;
    this.eventBus = eventBus;
    this.clock = clock;
    this.crossShard = crossShard;
    this.durable = durable;
    this.router = router;
    this.slots = slots;
  }

  /**
   * Deploys a new verticle for {@code shard} under {@code tenure}; its slot is closed to client
   * calls with {@code closedBecause} (null: open at once).
   */
  Future<ShardVerticle> deploy(int shard, ShardTenure tenure, String closedBecause) {
    ShardVerticle v = new ShardVerticle(shard, settings, budget, queueLimit, topicLimit, triggerLimit, receiptSecret,
        eventBus, clock, crossShard, durable, tenure);
    return vertx.deployVerticle(v, new DeploymentOptions().setThreadingModel(ThreadingModel.EVENT_LOOP))
        .map(id -> {
          deploymentIds.put(shard, id);
          tenures.put(shard, tenure);
          slots.deployed(shard, v, closedBecause);
          return v;
        });
  }

  /**
   * Loads the queues of {@code shard} (deployed, closed to clients) and their messages from
   * PostgreSQL, through {@code dispatcher} (not gated), then opens it to clients. Answers what came
   * back.
   */
  Future<String> load(int shard, ShardDispatcher dispatcher) {
    HeadWindow window = durable.config().paged() ? HeadWindow.of(durable.config().headWindowMessages()) : null;
    long started = System.nanoTime();
    return new Recovery(dispatcher, router, window, clock).run(durable.pool(), tenures.get(shard).fence(),
            s -> s == shard)
        // Topics and triggers are a single-node server's only so far (cluster mode refuses them): a
        // node taking shards over does not read them.
        .compose(loaded -> tenures.get(shard).submissions() != null ? Future.succeededFuture(loaded)
            : TopicRecovery.run(durable.pool(), dispatcher, router, s -> s == shard)
                .compose(topics -> TriggerRecovery.run(durable.pool(), dispatcher, router, s -> s == shard)
                    .map(triggers -> loaded + ", " + topics + ", " + triggers)))
        .map(loaded -> {
          slots.open(shard);
          LOG.log(System.Logger.Level.INFO, "Serving shard " + shard + ": " + loaded + " loaded in "
              + (System.nanoTime() - started) / 1_000_000 + " ms");
          return loaded;
        });
  }

  /**
   * Hands {@code shard} over: new client calls are refused from now on (retryable), parked receives
   * answer empty, the calls running finish, everything the shard submitted is written (or refused),
   * and its verticle is undeployed, giving back its memory.
   */
  Future<Void> drain(int shard, ShardDispatcher dispatcher, String because) {
    return drain(shard, dispatcher, because, true);
  }

  /**
   * {@link #drain(int, ShardDispatcher, String)}; without {@code awaitWrites}, for a shard that is
   * another node's already, whose writes PostgreSQL refuses anyway: it goes at once, even while
   * PostgreSQL cannot be reached to refuse them.
   */
  Future<Void> drain(int shard, ShardDispatcher dispatcher, String because, boolean awaitWrites) {
    slots.close(shard, because);
    long started = System.nanoTime();
    return dispatcher.<Void>call(shard, (s, reply) -> {
          Future<Void> written = s.retire(because);
          (awaitWrites ? written : Future.<Void>succeededFuture()).onComplete(reply);
        })
        .eventually(() -> {
          String id = deploymentIds.remove(shard);
          tenures.remove(shard);
          slots.undeployed(shard);
          return id == null ? Future.succeededFuture() : vertx.undeploy(id);
        })
        .onSuccess(v -> LOG.log(System.Logger.Level.INFO, (awaitWrites ? "Handed over shard " : "Dropped shard ")
            + shard + " in " + (System.nanoTime() - started) / 1_000_000 + " ms"));
  }
}
