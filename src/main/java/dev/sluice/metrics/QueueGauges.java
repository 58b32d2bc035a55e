package dev.sluice.metrics;

import dev.sluice.api.QueueKey;
import dev.sluice.engine.QueueSample;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The per-queue gauges, tagged with the queue's name, account and region (queues of one name in
 * several accounts or regions are different queues). Queue state belongs to the shards' event
 * loops, so gauges cannot read it directly: before each scrape the shards are sampled and the
 * values copied here. A queue that is no longer sampled (deleted) has its gauges removed from the
 * registry in the same step, so a scrape never shows a deleted queue and the registry does not grow
 * with queues come and gone.
 */
final class QueueGauges {
  /** The last sampled values of one queue; the gauges read these fields. */
  private static final class Values {
    volatile double visible;
    volatile double inflight;
    volatile double delayed;
    volatile double backoff;
    volatile double oldestAgeMillis;
    final List<Meter> meters = new ArrayList<>();
  }

  private final MeterRegistry registry;
  private final Map<QueueKey, Values> byQueue = new HashMap<>();

  QueueGauges(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Takes a fresh sample of every queue; synchronized because two scrapes may overlap. */
  synchronized void update(List<QueueSample> samples) {
    Set<QueueKey> seen = new HashSet<>();
    for (QueueSample s : samples) {
      seen.add(s.queue());
      Values v = byQueue.computeIfAbsent(s.queue(), this::register);
      v.visible = s.visible();
      v.inflight = s.inflight();
      v.delayed = s.delayed();
      v.backoff = s.backoff();
      v.oldestAgeMillis = s.oldestAgeMillis();
    }
    byQueue.entrySet().removeIf(e -> {
      if (seen.contains(e.getKey())) {
        return false;
      }
      e.getValue().meters.forEach(registry::remove);
      return true;
    });
  }

  synchronized int size() {
    return byQueue.size();
  }

  private Values register(QueueKey key) {
    Values v = new Values();
    Tags queue = Tags.of(MetricNames.QUEUE_TAG, key.name(), MetricNames.ACCOUNT_TAG, key.accountId(),
        MetricNames.REGION_TAG, key.region());
    v.meters.add(Gauge.builder(MetricNames.QUEUE_VISIBLE, v, x -> x.visible)
        .description("Messages available for retrieval (ApproximateNumberOfMessages)")
        .tags(queue).register(registry));
    v.meters.add(Gauge.builder(MetricNames.QUEUE_INFLIGHT, v, x -> x.inflight)
        .description("Messages received and not yet deleted or visible again (ApproximateNumberOfMessagesNotVisible)")
        .tags(queue).register(registry));
    v.meters.add(Gauge.builder(MetricNames.QUEUE_DELAYED, v, x -> x.delayed)
        .description("Messages still in their delay (ApproximateNumberOfMessagesDelayed)")
        .tags(queue).register(registry));
    v.meters.add(Gauge.builder(MetricNames.QUEUE_BACKOFF, v, x -> x.backoff)
        .description("Messages waiting out their redelivery backoff (counted as delayed too)")
        .tags(queue).register(registry));
    v.meters.add(TimeGauge.builder(MetricNames.QUEUE_OLDEST_AGE, v, TimeUnit.MILLISECONDS, x -> x.oldestAgeMillis)
        .description("Age of the oldest message in the queue; 0 when empty")
        .tags(queue).register(registry));
    return v;
  }
}
