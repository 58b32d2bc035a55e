package dev.sluice.invoke;

import dev.sluice.engine.QueueEngine;
import dev.sluice.engine.TriggerRuntime;
import dev.sluice.metrics.TriggerMetrics;
import dev.sluice.outbound.OutboundSettings;
import dev.sluice.triggers.Trigger;
import dev.sluice.triggers.TriggerStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runtime of this server's triggers: one {@link TriggerRunner} deployed per trigger the engine
 * tells it of, and the server-wide cap on pollers (so on invokes in flight) that they share.
 * Thread-safe: the engine calls it from any event loop.
 */
public final class TriggerService implements TriggerRuntime {
  private final Vertx vertx;
  private final QueueEngine engine;
  private final OutboundSettings outbound;
  private final TriggerMetrics metrics;
  private final Map<UUID, Running> running = new ConcurrentHashMap<>();
  /** Pollers server-wide (invoke.maxConcurrentInvokes). */
  private final int maxPollers;
  private final AtomicInteger pollers = new AtomicInteger();
  private volatile boolean stopped;

  private record Running(TriggerRunner runner, Future<String> deployment) {}

  /**
   * {@code outbound}: the connect timeout and whether targets may be at private addresses; each
   * trigger's client has its own timeout and pool.
   */
  public TriggerService(Vertx vertx, QueueEngine engine, OutboundSettings outbound, TriggerMetrics metrics,
      int maxPollers) {
    this.maxPollers = maxPollers;
    this.vertx = vertx;
    this.engine = engine;
    this.outbound = outbound;
    this.metrics = metrics;
  }

  @Override
  public void apply(Trigger trigger) {
    if (stopped) {
      return;
    }
    running.compute(trigger.id(), (id, r) -> {
      if (r != null) {
        r.runner().update(trigger);
        return r;
      }
      TriggerRunner runner = new TriggerRunner(this, engine, outbound, metrics, trigger);
      return new Running(runner, vertx.deployVerticle(runner));
    });
  }

  @Override
  public void remove(UUID id) {
    Running r = running.remove(id);
    if (r != null) {
      r.deployment().onSuccess(vertx::undeploy);
    }
  }

  @Override
  public TriggerStatus status(UUID id) {
    Running r = running.get(id);
    return r == null ? TriggerStatus.NOT_STARTED : r.runner().status();
  }

  /** Stops every trigger: pollers stop, invokes under way settle (each within its target's timeout). */
  public Future<Void> stop() {
    stopped = true;
    List<Future<?>> undeployed = new ArrayList<>();
    for (UUID id : List.copyOf(running.keySet())) {
      Running r = running.remove(id);
      if (r != null) {
        undeployed.add(r.deployment().compose(vertx::undeploy));
      }
    }
    return Future.join(undeployed).mapEmpty();
  }

  boolean takePoller() {
    while (true) {
      int now = pollers.get();
      if (now >= maxPollers) {
        return false;
      }
      if (pollers.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  void releasePoller() {
    pollers.decrementAndGet();
  }
}
