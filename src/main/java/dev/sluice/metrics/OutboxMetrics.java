package dev.sluice.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;

/**
 * The meters of the outbox relays (src/site/markdown/outbox.md#metrics), tagged with the source's
 * name, so that their series are bounded by the configured sources. The relays record into them as
 * they go; when metrics are off the registry is one that keeps nothing.
 */
public final class OutboxMetrics {
  private final MeterRegistry registry;

  OutboxMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** The meters of one source; {@code oldestAgeSeconds} and {@code leaseHeld} are read at each scrape. */
  public Recorder recorder(String source, DoubleSupplier oldestAgeSeconds, BooleanSupplier leaseHeld) {
    return new Recorder(Tags.of(MetricNames.SOURCE_TAG, source), oldestAgeSeconds, leaseHeld);
  }

  /** One source's meters. Thread-safe, as Micrometer's meters are. */
  public final class Recorder implements AutoCloseable {
    private final Counter relayed;
    private final Counter dead;
    private final Counter retried;
    private final Counter notified;
    private final Counter polled;
    private final List<Meter> meters;

    private Recorder(Tags tags, DoubleSupplier oldestAgeSeconds, BooleanSupplier leaseHeld) {
      relayed = Counter.builder(MetricNames.OUTBOX_RELAYED).description("Outbox rows stored as messages and deleted")
          .tags(tags).register(registry);
      dead = Counter.builder(MetricNames.OUTBOX_DEAD).description("Outbox rows moved to the dead-row table")
          .tags(tags).register(registry);
      retried = Counter.builder(MetricNames.OUTBOX_RETRIED).description("Outbox rows left for a later round")
          .tags(tags).register(registry);
      notified = wakeups(tags, "notify");
      polled = wakeups(tags, "poll");
      Gauge age = Gauge.builder(MetricNames.OUTBOX_OLDEST_AGE, oldestAgeSeconds::getAsDouble).baseUnit("seconds")
          .description("Age of the outbox's oldest row").tags(tags).register(registry);
      Gauge lease = Gauge.builder(MetricNames.OUTBOX_LEASE, () -> leaseHeld.getAsBoolean() ? 1 : 0)
          .description("1 while this node holds the source's lease").tags(tags).register(registry);
      meters = List.of(relayed, dead, retried, notified, polled, age, lease);
    }

    private Counter wakeups(Tags tags, String cause) {
      return Counter.builder(MetricNames.OUTBOX_WAKEUPS).description("Relay wake-ups by cause").tags(tags)
          .tag(MetricNames.CAUSE_TAG, cause).register(registry);
    }

    public void relayed(int rows) {
      relayed.increment(rows);
    }

    public void dead(int rows) {
      dead.increment(rows);
    }

    public void retried(int rows) {
      retried.increment(rows);
    }

    /** A wake-up: by a NOTIFY ({@code notified}) or by the poll timer. */
    public void wokenUp(boolean notified) {
      (notified ? this.notified : polled).increment();
    }

    /** The source's relay stopped: its series go with it. */
    @Override
    public void close() {
      meters.forEach(registry::remove);
    }
  }
}
