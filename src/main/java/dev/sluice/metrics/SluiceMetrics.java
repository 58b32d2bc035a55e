package dev.sluice.metrics;

import dev.sluice.engine.QueueEngine;
import dev.sluice.model.MemoryBudget;
import dev.sluice.persistence.BatchObserver;
import dev.sluice.persistence.PersistenceVerticle;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The server's meters: one Prometheus registry holding Sluice's own metrics ({@link MetricNames}),
 * Vert.x's (HTTP server, event bus, pools) and the JVM's. With metrics off the registry is an empty
 * composite, whose meters record nothing, so callers never check.
 */
public final class SluiceMetrics {
  /**
   * Vert.x's Micrometer binding registers some of its gauges anew for each event-bus handler,
   * connection and request, all sharing one counter per gauge id, so their readings are right.
   * Micrometer warns at the first such repeat, which every start makes (vertx.eventbus.handlers,
   * as the push service registers its handlers). Repeats of Vert.x's gauges are left out of the log;
   * one of ours would still be reported. Held here: the logging framework keeps loggers weakly.
   */
  private static final Logger REGISTRY_LOG = Logger.getLogger(MeterRegistry.class.getName());

  static {
    REGISTRY_LOG.setFilter(r -> r.getLevel() != Level.WARNING || r.getMessage() == null
        || !(r.getMessage().contains("already registered") && r.getMessage().contains("MeterId{name='vertx.")));
  }

  private final MeterRegistry registry;
  private final PrometheusMeterRegistry prometheus;
  private final RequestMetrics requests;
  private final QueueGauges queues;
  private final TopicCounters topics;
  private final TriggerMetrics triggers;
  private final OutboxMetrics outbox;
  private final AtomicInteger parked = new AtomicInteger();
  private final AtomicLong duplicateRows = new AtomicLong();
  private final AtomicLong slabLive = new AtomicLong();
  private final AtomicLong slabAllocated = new AtomicLong();

  private SluiceMetrics(MeterRegistry registry, PrometheusMeterRegistry prometheus) {
    this.registry = registry;
    this.prometheus = prometheus;
    this.requests = new RequestMetrics(registry);
    this.queues = new QueueGauges(registry);
    this.topics = new TopicCounters(registry);
    this.triggers = new TriggerMetrics(registry);
    this.outbox = new OutboxMetrics(registry);
    Gauge.builder(MetricNames.PARKED_RECEIVES, parked, AtomicInteger::get)
        .description("Long polls waiting for a message").register(registry);
    Gauge.builder(MetricNames.BACKLOG_DUPLICATE_ROWS, duplicateRows, AtomicLong::get)
        .description("Rows page reads brought back that were in memory already; a defect if above 0")
        .register(registry);
    Gauge.builder(MetricNames.SLAB_LIVE, slabLive, AtomicLong::get).baseUnit("bytes")
        .description("Bytes of live message records in the shards' content slabs").register(registry);
    Gauge.builder(MetricNames.SLAB_ALLOCATED, slabAllocated, AtomicLong::get).baseUnit("bytes")
        .description("Bytes of the chunks the shards' content slabs hold").register(registry);
  }

  public static SluiceMetrics create(boolean enabled) {
    if (!enabled) {
      return new SluiceMetrics(new CompositeMeterRegistry(), null);
    }
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    return new SluiceMetrics(prometheus, prometheus);
  }

  public boolean enabled() {
    return prometheus != null;
  }

  public MeterRegistry registry() {
    return registry;
  }

  public RequestMetrics requests() {
    return requests;
  }

  /** The triggers' meters. */
  public TriggerMetrics triggers() {
    return triggers;
  }

  /** The outbox relays' meters. */
  public OutboxMetrics outbox() {
    return outbox;
  }

  /**
   * Turns on Vert.x's metrics in {@code options} (pass the registry to the Vert.x builder too).
   * Labels are chosen so series stay bounded: no event-bus address (each push subscription has its
   * own), no remote address and no request path.
   */
  public VertxOptions configure(VertxOptions options) {
    if (enabled()) {
      options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true).setJvmMetricsEnabled(true)
          .setLabels(EnumSet.of(Label.HTTP_METHOD, Label.HTTP_CODE, Label.POOL_TYPE, Label.POOL_NAME,
              Label.EB_SIDE, Label.EB_FAILURE)));
    }
    return options;
  }

  public void bindMemoryBudget(MemoryBudget budget) {
    Gauge.builder(MetricNames.MEMORY_USED, budget, MemoryBudget::usedBytes).baseUnit("bytes")
        .description("Bytes of messages held against the memory budget").register(registry);
    Gauge.builder(MetricNames.MEMORY_LIMIT, budget, MemoryBudget::limitBytes).baseUnit("bytes")
        .description("The memory budget (engine.memoryBudgetBytes)").register(registry);
  }

  /** A supplier-backed gauge: Micrometer holds it strongly (a gauge's state object it holds weakly). */
  public void bindPushSubscriptions(IntSupplier open) {
    Gauge.builder(MetricNames.PUSH_SUBSCRIPTIONS, open::getAsInt)
        .description("Open push subscriptions over the event-bus bridge").register(registry);
  }

  /** The console's gauges: its open streams, its history's bytes and its kept series. */
  public void bindConsole(IntSupplier streams, LongSupplier historyBytes, IntSupplier series) {
    Gauge.builder(MetricNames.CONSOLE_STREAMS, streams::getAsInt)
        .description("Open console live-update streams").register(registry);
    Gauge.builder(MetricNames.CONSOLE_HISTORY, historyBytes::getAsLong).baseUnit("bytes")
        .description("Bytes the console's history holds").register(registry);
    Gauge.builder(MetricNames.CONSOLE_HISTORY_SERIES, series::getAsInt)
        .description("Queues and topics whose history the console keeps").register(registry);
  }

  /** The writer's gauges; its batch size and flush time it records itself, into this registry. */
  /**
   * The meters of the durable writer's batches (their sizes and write times), registered when the
   * writer is built: durable mode only.
   */
  public BatchObserver batchObserver() {
    DistributionSummary sizes = DistributionSummary.builder(MetricNames.PERSISTENCE_BATCH_SIZE)
        .description("Changes written per PostgreSQL batch").register(registry);
    Timer flushes = Timer.builder(MetricNames.PERSISTENCE_FLUSH)
        .description("Time to write and commit one PostgreSQL batch, retries included").register(registry);
    return (changes, nanos) -> {
      sizes.record(changes);
      flushes.record(nanos, TimeUnit.NANOSECONDS);
    };
  }

  public void bindWriter(PersistenceVerticle writer) {
    TimeGauge.builder(MetricNames.PERSISTENCE_LAG, writer, TimeUnit.MILLISECONDS, PersistenceVerticle::lagMillis)
        .description("Age of the oldest change not yet committed to PostgreSQL").register(registry);
    Gauge.builder(MetricNames.PERSISTENCE_PENDING, writer, PersistenceVerticle::pendingChanges)
        .description("Changes waiting to be committed to PostgreSQL").register(registry);
    FunctionCounter.builder(MetricNames.PERSISTENCE_FAILURES, writer, PersistenceVerticle::failures)
        .description("PostgreSQL batch attempts that failed (retried, or refused for good)").register(registry);
  }

  /**
   * The Prometheus text: the shards are sampled first so the queue gauges are current (and a
   * deleted queue's are gone), then the registry is rendered off the event loop, since a server
   * with many queues has many lines.
   */
  public Future<String> scrape(Vertx vertx, QueueEngine engine) {
    if (!enabled()) {
      return Future.failedFuture(new IllegalStateException("metrics are off"));
    }
    return engine.sample().compose(sample -> {
      parked.set(sample.parkedReceives());
      duplicateRows.set(sample.backlogDuplicateRows());
      slabLive.set(sample.slabLiveBytes());
      slabAllocated.set(sample.slabAllocatedBytes());
      return vertx.executeBlocking(() -> {
        queues.update(sample.queues());
        topics.update(sample.topics());
        return prometheus.scrape();
      }, false);
    });
  }
}
