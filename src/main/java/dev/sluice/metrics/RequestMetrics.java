package dev.sluice.metrics;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.topics.SnsErrorCode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The request timer, one series per action and outcome. Timers are looked up once and kept: the
 * hot path pays a map read and the timer's own record. Tag values come from a closed set (the
 * protocols' action names, {@link ErrorCode} and {@link SnsErrorCode}), never from the request, so a
 * client cannot grow the series without bound.
 */
public final class RequestMetrics {
  /** Buckets sized for SQS calls: sub-millisecond sends up to 20-second long polls. */
  private static final Duration[] BUCKETS = {
      Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
      Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
      Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
      Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30)};
  private static final String NO_ERROR = "none";

  private final MeterRegistry registry;
  /** Per action: the timer of success at index 0, of each error code at its ordinal + 1. */
  private final Map<String, Timer[]> timers = new ConcurrentHashMap<>();
  /** The same for the SNS actions, by {@link SnsErrorCode}. */
  private final Map<String, Timer[]> snsTimers = new ConcurrentHashMap<>();

  RequestMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Records one request of {@code action}, answered with {@code error} (null for success). */
  public void record(String action, ErrorCode error, long startNanos) {
    Timer[] byOutcome = timers.computeIfAbsent(action, a -> new Timer[ErrorCode.values().length + 1]);
    record(byOutcome, action, error == null ? 0 : error.ordinal() + 1, error == null ? NO_ERROR : error.queryCode(),
        startNanos);
  }

  /** Records one request of the SNS action {@code action}, answered with {@code error} (null for success). */
  public void recordSns(String action, SnsErrorCode error, long startNanos) {
    Timer[] byOutcome = snsTimers.computeIfAbsent(action, a -> new Timer[SnsErrorCode.values().length + 1]);
    record(byOutcome, action, error == null ? 0 : error.ordinal() + 1, error == null ? NO_ERROR : error.code(),
        startNanos);
  }

  private void record(Timer[] byOutcome, String action, int slot, String errorTag, long startNanos) {
    Timer t = byOutcome[slot];
    if (t == null) {
      t = Timer.builder(MetricNames.REQUESTS)
          .description("SQS and SNS requests by action and outcome")
          .tag(MetricNames.ACTION_TAG, action)
          .tag(MetricNames.ERROR_TAG, errorTag)
          .serviceLevelObjectives(BUCKETS)
          .register(registry);
      byOutcome[slot] = t; // a race registers the same timer twice, which Micrometer resolves to one
    }
    t.record(System.nanoTime() - startNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
  }
}
