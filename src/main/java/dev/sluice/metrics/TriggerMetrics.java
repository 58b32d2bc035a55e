package dev.sluice.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The meters of triggers (design/triggers.md §2.12), tagged with the trigger's id and its queue's
 * name, account and region, so that their series are bounded by the number of triggers; a deleted
 * trigger's series go with it. The runtime records into them as it invokes; when metrics are off
 * the registry is one that keeps nothing.
 */
public final class TriggerMetrics {
  private final MeterRegistry registry;

  TriggerMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** The meters of one trigger; {@code invoking} and {@code pollers} are read at each scrape. */
  public Recorder recorder(String trigger, String queue, String account, String region, IntSupplier invoking,
      IntSupplier pollers) {
    return new Recorder(Tags.of(MetricNames.TRIGGER_TAG, trigger, MetricNames.QUEUE_TAG, queue,
        MetricNames.ACCOUNT_TAG, account, MetricNames.REGION_TAG, region), invoking, pollers);
  }

  /** One trigger's meters. Thread-safe, as Micrometer's meters are. */
  public final class Recorder implements AutoCloseable {
    private final Tags tags;
    /** Every meter registered for the trigger, by name and extra tag, to remove on close. */
    private final Map<String, Meter> meters = new ConcurrentHashMap<>();
    private final DistributionSummary batchRecords;
    private final DistributionSummary oldestAge;

    private Recorder(Tags tags, IntSupplier invoking, IntSupplier pollers) {
      this.tags = tags;
      batchRecords = keep("batch", DistributionSummary.builder(MetricNames.TRIGGER_BATCH_RECORDS)
          .description("Records per invoke").tags(tags).register(registry));
      oldestAge = keep("age", DistributionSummary.builder(MetricNames.TRIGGER_OLDEST_RECORD_AGE).baseUnit("seconds")
          .description("Age of a batch's oldest record when it was invoked").tags(tags).register(registry));
      keep("concurrency", Gauge.builder(MetricNames.TRIGGER_CONCURRENCY, invoking::getAsInt)
          .description("Invokes in flight").tags(tags).register(registry));
      keep("pollers", Gauge.builder(MetricNames.TRIGGER_POLLERS, pollers::getAsInt)
          .description("Pollers running").tags(tags).register(registry));
    }

    /** An invoke ended: {@code outcome} success, partial or failure. */
    public void invoked(String outcome, int records, long durationNanos, double oldestAgeSeconds) {
      batchRecords.record(records);
      oldestAge.record(oldestAgeSeconds);
      ((Counter) meters.computeIfAbsent("invocations " + outcome, k -> Counter.builder(MetricNames.TRIGGER_INVOCATIONS)
          .description("Invokes made").tags(tags).tag(MetricNames.OUTCOME_TAG, outcome).register(registry)))
          .increment();
      ((Timer) meters.computeIfAbsent("duration " + outcome, k -> Timer.builder(MetricNames.TRIGGER_INVOKE_DURATION)
          .description("From the request to its answer read").tags(tags).tag(MetricNames.OUTCOME_TAG, outcome)
          .register(registry))).record(durationNanos, TimeUnit.NANOSECONDS);
    }

    /** A failed invoke or receive, by kind. */
    public void error(String kind) {
      ((Counter) meters.computeIfAbsent("errors " + kind, k -> Counter.builder(MetricNames.TRIGGER_ERRORS)
          .description("Failed invokes and receives").tags(tags).tag(MetricNames.KIND_TAG, kind).register(registry)))
          .increment();
    }

    /** What happened to {@code n} records: deleted, failed, fifo_after_failure, filtered or late. */
    public void records(String result, int n) {
      if (n > 0) {
        ((Counter) meters.computeIfAbsent("records " + result, k -> Counter.builder(MetricNames.TRIGGER_RECORDS)
            .description("Records by what became of them").tags(tags).tag(MetricNames.RESULT_TAG, result)
            .register(registry))).increment(n);
      }
    }

    private <M extends Meter> M keep(String key, M meter) {
      meters.put(key, meter);
      return meter;
    }

    /** The trigger is gone: its series go too. */
    @Override
    public void close() {
      meters.values().forEach(registry::remove);
      meters.clear();
    }
  }
}
