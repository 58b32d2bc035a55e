package dev.sluice;

import dev.sluice.cluster.ClusterNode;
import dev.sluice.cluster.Forwarding;
import dev.sluice.cluster.ShardManager;
import dev.sluice.cluster.SharedSettings;
import dev.sluice.config.EngineConfig;
import dev.sluice.config.ConsoleConfig;
import dev.sluice.console.ConsoleData;
import dev.sluice.config.SluiceConfig;
import dev.sluice.engine.EngineSettings;
import dev.sluice.engine.EngineStartup;
import dev.sluice.outbound.OutboundSettings;
import dev.sluice.engine.QueueEngine;
import dev.sluice.invoke.TriggerService;
import dev.sluice.outbox.OutboxRelays;
import dev.sluice.access.IdentityPolicy;
import dev.sluice.auth.Surfaces;
import dev.sluice.config.Credential;
import dev.sluice.http.ConsoleSettings;
import dev.sluice.http.HttpListener;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.persistence.ClusterJoin;
import dev.sluice.persistence.DurableStore;
import dev.sluice.persistence.SchemaMigrations;
import dev.sluice.push.PushBridges;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A running Sluice server: its Vert.x instance, the engine, push delivery and the HTTP front. Boot
 * order: Vert.x, PostgreSQL (durable mode), shards and recovery, predefined queues, triggers, outbox
 * relays, push, then HTTP, so no request arrives before its shard exists. {@link #stop} goes the other way. In durable mode
 * it serves only while it owns its database (see {@code DurableStore#notServingReason}).
 */
public final class Sluice {
  private static final System.Logger LOG = System.getLogger(Sluice.class.getName());

  private final Vertx vertx;
  private final QueueEngine engine;
  private final HttpListener http;
  private final PushBridges push;
  /** What runs the triggers; null in cluster mode, which does not serve them yet. */
  private final TriggerService triggers;
  /** The outbox relays; null when no outbox source is relayed. */
  private final OutboxRelays outbox;
  private final DurableStore durable;
  private final SluiceMetrics metrics;
  private final AtomicBoolean stopping;
  /** Cluster mode's membership and shards; null for a single-node server. */
  private final Clustering clustering;
  /** Null when the console is off (console.enabled). */
  private final ConsoleData console;

  private Sluice(Vertx vertx, QueueEngine engine, HttpListener http, PushBridges push, TriggerService triggers,
      OutboxRelays outbox, DurableStore durable, SluiceMetrics metrics, AtomicBoolean stopping, Clustering clustering,
      ConsoleData console) {
    this.outbox = outbox;
    this.console = console;
    this.triggers = triggers;
    this.clustering = clustering;
    this.vertx = vertx;
    this.engine = engine;
    this.http = http;
    this.push = push;
    this.durable = durable;
    this.metrics = metrics;
    this.stopping = stopping;
  }

  public static Future<Sluice> start(SluiceConfig cfg) {
    // One loop per core by default: nothing here blocks, so extra loops only add hops (measured).
    int loops = cfg.engine().eventLoops() > 0 ? cfg.engine().eventLoops() : Runtime.getRuntime().availableProcessors();
    SluiceMetrics metrics = SluiceMetrics.create(cfg.ops().metricsEnabled());
    VertxOptions options = metrics.configure(
        new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true));
    Vertx vertx = (metrics.enabled()
        ? Vertx.builder().with(options).withMetrics(new MicrometerMetricsFactory(metrics.registry()))
        : Vertx.builder().with(options)).build();
    EngineSettings settings = engineSettings(cfg, loops);
    int httpInstances = cfg.http().instances() > 0 ? cfg.http().instances() : loops;
    AtomicBoolean stopping = new AtomicBoolean();
    AtomicReference<DurableStore> store = new AtomicReference<>();
    AtomicBoolean recovered = new AtomicBoolean();
    Supplier<String> notReadyReason = () -> stopping.get() ? "Sluice is shutting down"
        : !recovered.get() ? "Sluice is starting: recovering its queues (in durable mode, once it holds its database)"
        : store.get() == null ? null : store.get().notReadyReason();
    // The schema scripts are read here, on the calling thread, before anything runs on a loop.
    SchemaMigrations scripts = cfg.storage().durable() ? SchemaMigrations.load() : null;
    Surfaces surfaces = Surfaces.of(cfg);
    if (surfaces.openBeyondLoopback()) {
      LOG.log(System.Logger.Level.WARNING, "Open to anyone who can reach them: " + String.join("; ", surfaces.open())
          + " (see src/site/markdown/security.md)");
    } else if (!surfaces.open().isEmpty()) {
      LOG.log(System.Logger.Level.INFO, "Open to any process on this machine (loopback only): "
          + String.join("; ", surfaces.open()) + " (see src/site/markdown/security.md)");
    }
    boolean clustered = cfg.cluster().enabled();
    AtomicReference<ClusterNode> node = new AtomicReference<>();
    AtomicReference<ShardManager> shards = new AtomicReference<>();
    AtomicReference<TriggerService> triggers = new AtomicReference<>();
    AtomicReference<OutboxRelays> outbox = new AtomicReference<>();
    // The port opens first, so that health probes are answered while the queues are recovered.
    return HttpListener.listen(vertx, cfg.http(), cfg.security(), httpInstances, notReadyReason,
            cfg.push().enabled() ? cfg.push().maxFrameBytes() : 0, ConsoleSettings.of(cfg, surfaces))
        .compose(http -> (clustered
                ? ClusterNode.join(cfg.cluster()).compose(joined -> {
                  node.set(joined);
                  return DurableStore.startClustered(vertx, cfg.storage(), cfg.sqs(), scripts, metrics.batchObserver(),
                      new ClusterJoin(joined.nodeId(), holder(), joined.eventBusAddress(), SharedSettings.hash(cfg),
                          cfg.cluster().shards(), cfg.cluster().leaseMillis()));
                })
                : scripts != null
                ? DurableStore.start(vertx, cfg.storage(), cfg.sqs(), scripts, metrics.batchObserver())
                : Future.<DurableStore>succeededFuture(null))
            .compose(durable -> {
              store.set(durable);
              return clustered ? EngineStartup.startClustered(vertx, settings, durable)
                  : EngineStartup.start(vertx, settings, durable);
            })
            .compose(engine -> {
              if (clustered) {
                ShardManager manager = ShardManager.start(vertx, engine, store.get().connectOptions(),
                    node.get().nodeId(), cfg.cluster().shards(), cfg.cluster().leaseMillis(), node.get()::members);
                shards.set(manager);
                store.get().writer().onShardsFenced(manager::fenced);
                Forwarding.start(node.get(), manager, engine, vertx.getOrCreateContext(), cfg.cluster().secret(),
                    store.get().receiptKey(), cfg.cluster().retryMillis());
              }
              metrics.bindMemoryBudget(engine.memoryBudget());
              if (store.get() != null) {
                metrics.bindWriter(store.get().writer());
              }
              return new PredefinedQueues(engine).create(cfg.ops().queues())
                  .compose(v -> new PredefinedTopics(engine).create(cfg.ops().topics()))
                  .compose(v -> {
                    if (clustered || !cfg.invoke().enabled()) {
                      return Future.<Void>succeededFuture();
                    }
                    triggers.set(new TriggerService(vertx, engine, triggerOutbound(cfg), metrics.triggers(),
                        cfg.invoke().maxConcurrentInvokes()));
                    return engine.triggers().connect(triggers.get())
                        .compose(connected -> new PredefinedTriggers(engine, cfg.sqs()).apply(cfg.ops().triggers()));
                  })
                  .compose(v -> cfg.outbox().relayed().isEmpty() ? Future.<Void>succeededFuture()
                      : OutboxRelays.start(vertx, engine, cfg.outbox(), metrics.outbox()).map(relays -> {
                        outbox.set(relays);
                        return null;
                      }))
                  .compose(v -> cfg.push().enabled()
                      ? PushBridges.start(
                          vertx, engine, cfg.push(), cfg.sqs(), surfaces.managementToken(), cfg.http())
                      : Future.<PushBridges>succeededFuture(null))
                  .map(push -> {
                    if (push != null) {
                      metrics.bindPushSubscriptions(push::openSubscriptions);
                    }
                    if (store.get() != null) {
                      // Client calls are refused by the engine's gate; what waits for a client
                      // (parked receives, push subscriptions) is let go here.
                      store.get().onServingChanged(serving -> {
                        engine.pauseParking(!serving);
                        if (push != null) {
                          push.serving(serving);
                        }
                      });
                    }
                    ConsoleConfig c = cfg.console();
                    ConsoleData console = c.enabled()
                        ? ConsoleData.start(vertx, engine, c.sampleMillis(), c.historySeries(), c.maxStreams()) : null;
                    if (console != null) {
                      metrics.bindConsole(console.streams()::openStreams, console.sampler()::retainedBytes,
                          console.sampler()::series);
                    }
                    http.serve(engine, surfaces, push, metrics, triggers.get() != null, console, outbox.get());
                    recovered.set(true);
                    return new Sluice(vertx, engine, http, push, triggers.get(), outbox.get(), store.get(), metrics,
                        stopping, clustered ? new Clustering(node.get(), shards.get()) : null, console);
                  });
            }))
        .recover(failure -> (node.get() == null ? Future.<Void>succeededFuture() : node.get().leave())
            .transform(left -> vertx.close()).transform(ignored -> Future.failedFuture(failure)));
  }

  /** Who this process is, as people read it in PostgreSQL's tables: the host (when known) and the process. */
  private static String holder() {
    String host = System.getenv("HOSTNAME");
    return (host == null || host.isEmpty() ? "" : host + " ") + "pid " + ProcessHandle.current().pid();
  }

  /** A cluster node's membership and its shards. */
  private record Clustering(ClusterNode node, ShardManager shards) {}

  static EngineSettings engineSettings(SluiceConfig cfg, int loops) {
    EngineConfig e = cfg.engine();
    long budget = e.memoryBudgetBytes() > 0 ? e.memoryBudgetBytes() : Runtime.getRuntime().maxMemory() / 2;
    return new EngineSettings(
        // Cluster mode: the virtual shards, which nodes hold a share of (engine.shards is 0 then).
        cfg.cluster().enabled() ? cfg.cluster().shards() : e.shards() > 0 ? e.shards() : loops,
        e.dispatch(),
        budget,
        e.maxParkedReceives(),
        e.maxParkedReceivesPerQueue(),
        e.maxInflightPerQueue(),
        e.maxQueues(),
        cfg.security().accessKeys().stream()
            .filter(k -> k.permissions() != IdentityPolicy.FULL_ACCESS)
            .collect(Collectors.toMap(Credential::accessKeyId, Credential::permissions)),
        new OutboundSettings(cfg.outbound().connectTimeoutMillis(), cfg.outbound().requestTimeoutMillis(),
            cfg.outbound().maxConnectionsPerEndpoint(), cfg.outbound().maxQueuedPerEndpoint(),
            cfg.outbound().allowPrivateAddresses()),
        cfg.invoke().maxTriggers());
  }

  /**
   * How triggers reach their targets: the configured connect timeout, and invoke.allowPrivateAddresses
   * (only the operator names targets, and handlers usually run on private networks: true by
   * default). Each trigger's client has its own timeout and pool.
   */
  private static OutboundSettings triggerOutbound(SluiceConfig cfg) {
    return new OutboundSettings(cfg.outbound().connectTimeoutMillis(), cfg.outbound().requestTimeoutMillis(),
        cfg.outbound().maxConnectionsPerEndpoint(), cfg.outbound().maxQueuedPerEndpoint(),
        cfg.invoke().allowPrivateAddresses());
  }

  public int port() {
    return http.port();
  }

  /** Request body bytes the HTTP port holds in memory right now. */
  public long requestBytesInUse() {
    return http.requestBytesInUse();
  }

  public QueueEngine engine() {
    return engine;
  }

  public Vertx vertx() {
    return vertx;
  }

  public SluiceMetrics metrics() {
    return metrics;
  }

  /**
   * Completes when another server has claimed this server's database (durable mode): this one
   * refuses every call from then on and never serves again. Never completes in memory mode.
   */
  public Future<Void> fenced() {
    return durable == null ? Promise.<Void>promise().future() : durable.fenced();
  }

  /** Stops at once: {@link #stop(long)} with a short grace period, for tests and embedding. */
  public Future<Void> stop() {
    return stop(5_000);
  }

  /**
   * Stops gracefully within about {@code graceMillis}, in this order:
   * <ol>
   *   <li>readiness answers 503 and the HTTP listener stops accepting connections;
   *   <li>console streams end and the console's sampler stops;
   *   <li>push subscriptions end, their unacknowledged messages visible again at once;
   *   <li>triggers stop polling, batches being gathered visible again at once, and the invokes
   *       under way settle (until the grace period's end);
   *   <li>outbox relays stop: a round under way commits or rolls back, then their sessions close;
   *   <li>parked long polls are answered with no messages, and receives stop waiting;
   *   <li>requests under way finish and connections close (until the grace period's end);
   *   <li>the durable writer writes everything it holds (until the grace period's end);
   *   <li>Vert.x closes.
   * </ol>
   * Succeeds when everything finished in time, fails (after closing anyway) when it did not.
   */
  public Future<Void> stop(long graceMillis) {
    if (!stopping.compareAndSet(false, true)) {
      return Future.failedFuture(new IllegalStateException("already stopping"));
    }
    long deadline = System.nanoTime() + graceMillis * 1_000_000;
    LOG.log(System.Logger.Level.INFO, "Stopping (grace period " + graceMillis + " ms)");
    AtomicBoolean allInTime = new AtomicBoolean(true);
    // A cluster node hands its shards on first, within half the grace period, while its port still
    // answers (calls for them are refused with the retryable ServiceUnavailable meanwhile).
    Future<Void> handedOver = clustering == null ? Future.succeededFuture()
        : within(clustering.shards().leave(graceMillis / 2), deadline, "shard hand-overs", allInTime);
    return handedOver.transform(ignored -> stopServing(deadline, allInTime));
  }

  private Future<Void> stopServing(long deadline, AtomicBoolean allInTime) {
    // Streams end first, so that no open stream holds the connections' shutdown for the grace period.
    Future<Void> consoleStopped = console == null ? Future.succeededFuture() : console.stop();
    Future<Void> connectionsClosed = http.shutdown(remainingMillis(deadline));
    Future<Void> pushStopped = push == null ? Future.succeededFuture() : push.stop();
    Future<Void> triggersStopped = triggers == null ? Future.succeededFuture()
        : within(triggers.stop(), deadline, "trigger invokes", allInTime);
    Future<Void> outboxStopped = outbox == null ? Future.succeededFuture()
        : within(outbox.stop(), deadline, "outbox rounds", allInTime);
    Future<Void> drained = pushStopped
        .transform(ignored -> consoleStopped)
        .transform(ignored -> triggersStopped)
        .transform(ignored -> outboxStopped)
        .transform(ignored -> engine.stopParking())
        .transform(ignored -> within(connectionsClosed, deadline, "open HTTP connections", allInTime))
        .transform(ignored -> clustering == null ? Future.<Void>succeededFuture() : clustering.shards().close())
        .transform(ignored -> durable == null ? Future.<Void>succeededFuture()
            : within(durable.stop(remainingMillis(deadline), allInTime.get()), deadline, "PostgreSQL writes",
                allInTime))
        .transform(ignored -> clustering == null ? Future.<Void>succeededFuture()
            : within(clustering.node().leave(), deadline, "leaving the cluster", allInTime));
    // Vert.x is closed from a thread of its own: a future completed on an event loop after Vert.x
    // has closed would never be delivered.
    Promise<Void> stopped = Promise.promise();
    drained.toCompletionStage().whenCompleteAsync((ok, failure) -> vertx.close().onComplete((closed, error) -> {
      if (allInTime.get()) {
        stopped.complete();
      } else {
        stopped.fail("the grace period ended before everything was finished");
      }
    }));
    return stopped.future();
  }

  private static long remainingMillis(long deadlineNanos) {
    return Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
  }

  /** Waits for {@code step} until the deadline; a step cut short is logged and noted, not fatal. */
  private Future<Void> within(Future<Void> step, long deadlineNanos, String what, AtomicBoolean allInTime) {
    Promise<Void> done = Promise.promise();
    long timer = vertx.setTimer(Math.max(1, remainingMillis(deadlineNanos)), t -> {
      if (done.tryComplete()) {
        allInTime.set(false);
        LOG.log(System.Logger.Level.WARNING, "Stopping: the grace period ended while waiting for " + what);
      }
    });
    step.onComplete((ok, failure) -> {
      vertx.cancelTimer(timer);
      if (failure != null) {
        LOG.log(System.Logger.Level.WARNING, "Stopping: " + what + " failed: " + failure.getMessage());
      }
      done.tryComplete();
    });
    return done.future();
  }
}
