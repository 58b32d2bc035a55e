package dev.sluice.engine;

import dev.sluice.model.BacklogStore;
import dev.sluice.model.ChangeLog;
import dev.sluice.model.ContentSlab;
import dev.sluice.model.HeadWindow;
import dev.sluice.model.DueTimeIndex;
import dev.sluice.model.MemoryBudget;
import dev.sluice.model.ParkingLimits;
import dev.sluice.model.QueueLimit;
import dev.sluice.persistence.TopicStore;
import dev.sluice.persistence.TriggerStore;
import dev.sluice.topics.TopicRegistry;
import dev.sluice.triggers.TriggerRegistry;
import dev.sluice.model.ReceiptHandleCodec;
import dev.sluice.model.ShardResources;
import dev.sluice.persistence.DurableStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import dev.sluice.runtime.EventLoops;
import java.util.function.LongSupplier;

/**
 * Deploys one shard on one event loop and drives its time: a single Vert.x timer, armed for the
 * earliest entry of the shard's due-time index, fires every delay, visibility expiry, retention
 * sweep and long-poll deadline. Never one timer per message. Everything here runs on this
 * verticle's context.
 *
 * <p>One deployment holds its shard for one {@link ShardTenure}. A shard deployed again (in cluster
 * mode, taken over by this node, or loaded again after a hand-over) is a new deployment with fresh
 * state; the old one's charges to the memory budget and the queue limit go back when it is
 * undeployed, since it holds them through shares of its own.
 */
public final class ShardVerticle extends VerticleBase {
  /** How often a shard drops the registries of places left without queues. */
  static final long IDLE_REGISTRY_SWEEP_MILLIS = 60_000;

  private final int index;
  private final EngineSettings settings;
  /** This deployment's shares of the server-wide budget, queue limit, topic limit and trigger limit. */
  private final MemoryBudget budget;
  private final QueueLimit queueLimit;
  private final QueueLimit topicLimit;
  private final QueueLimit triggerLimit;
  private final byte[] receiptSecret;
  private final boolean eventBusDispatch;
  private final LongSupplier clock;
  private final CrossShard crossShard;
  private final DurableStore durable;
  private final ShardTenure tenure;
  private Shard shard;
  private long timerId = -1;
  private long armedForMillis = Long.MAX_VALUE;

  public ShardVerticle(
      int index, EngineSettings settings, MemoryBudget budget, QueueLimit queueLimit, QueueLimit topicLimit,
      QueueLimit triggerLimit, byte[] receiptSecret,
      boolean eventBusDispatch, LongSupplier clock, CrossShard crossShard, DurableStore durable, ShardTenure tenure) {
    this.index = index;
    this.settings = settings;
    this.budget = budget.share();
    this.queueLimit = queueLimit.share();
    this.topicLimit = topicLimit.share();
    this.triggerLimit = triggerLimit.share();
    this.tenure = tenure;
    this.receiptSecret = receiptSecret;
    this.eventBusDispatch = eventBusDispatch;
    this.clock = clock;
    this.crossShard = crossShard;
    this.durable = durable;
  }

  @Override
  public Future<?> start() {
    boolean paged = durable != null && durable.config().paged();
    DurableChangeLog changes = durable == null ? null : new DurableChangeLog(vertx, durable.writer(),
        durable.config().answerAfterCommit(), durable.config().sendTimeoutMillis(),
        durable.config().writerBacklogLimitBytes(), paged, tenure.submissions());
    ShardResources env = new ShardResources(
        new DueTimeIndex(),
        new ReceiptHandleCodec(receiptSecret),
        new ParkingLimits(settings.maxParkedReceivesPerQueue(), settings.maxParkedReceivesPerShard()),
        budget,
        queueLimit,
        settings.maxInflightPerQueue(),
        crossShard,
        crossShard,
        changes == null ? ChangeLog.NONE : changes,
        ShardResources.firstKeyOfRun(tenure.run()),
        // Paging (pg.headWindowMessages above 0): standard queues keep a head of their backlog in
        // memory and read the rest back from PostgreSQL; else every message is resident.
        paged ? new PgBacklogStore(vertx, durable.readPool(), tenure.fence(), () -> shard) : BacklogStore.NONE,
        paged ? HeadWindow.of(durable.config().headWindowMessages()) : HeadWindow.UNBOUNDED,
        // The shard's resident message contents; it goes with this deployment's objects.
        new ContentSlab(SlabSizing.chunkBytes()));
    TopicWrites topicWrites = durable == null ? TopicWrites.NONE
        : new TopicWrites(new TopicStore(durable.pool(), tenure.fence()));
    TriggerWrites triggerWrites = durable == null ? TriggerWrites.NONE
        : new TriggerWrites(new TriggerStore(durable.pool(), tenure.fence()));
    shard = new Shard(index, env, new TopicRegistry(topicLimit, budget), new TriggerRegistry(triggerLimit), topicWrites,
        triggerWrites, clock, this::rearm,
        task -> context.runOnContext(v -> task.run()),
        // The shortest timer: the loop reads its sockets before it fires (a queued task would not).
        task -> EventLoops.setTimer(context, 1, id -> task.run()), changes);
    // On this verticle's context, and cancelled with it when it is undeployed.
    vertx.setPeriodic(IDLE_REGISTRY_SWEEP_MILLIS, id -> shard.dropIdleRegistries());
    if (eventBusDispatch) {
      EventBusDispatcher.register(vertx, index, shard);
    }
    return Future.succeededFuture();
  }

  /** Undeployed: what this deployment still had charged is the server's again. */
  @Override
  public Future<?> stop() {
    budget.releaseShare();
    queueLimit.releaseShare();
    topicLimit.releaseShare();
    triggerLimit.releaseShare();
    return Future.succeededFuture();
  }

  /** What this deployment holds its shard under. */
  ShardTenure tenure() {
    return tenure;
  }

  Context context() {
    return context;
  }

  Shard shard() {
    return shard;
  }

  /** Arms the timer for the earliest due time if it is earlier than what is armed now. */
  private void rearm() {
    long next = shard.dueTimes().nextDueAtMillis();
    if (next == Long.MAX_VALUE || next >= armedForMillis) {
      return;
    }
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
    }
    long delay = Math.max(1, next - shard.now());
    armedForMillis = next;
    // Bound to this shard's context whatever context is current (a call may run in place).
    timerId = EventLoops.setTimer(context, delay, id -> fire());
  }

  private void fire() {
    timerId = -1;
    armedForMillis = Long.MAX_VALUE;
    if (shard.fireDue()) {
      context.runOnContext(v -> fire()); // the rest in a later turn, after other queued work
    }
  }
}
