package dev.sluice.metrics;

import dev.sluice.api.topics.TopicKey;
import dev.sluice.engine.TopicSample;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The per-topic counters, tagged with the topic's name, account and region. The counts belong to
 * the shards' event loops, so, as for the queue gauges, they are sampled before each scrape and
 * copied here; a topic no longer sampled (deleted) has its series removed in the same step.
 */
final class TopicCounters {
  /** The last sampled counts of one topic; the counters read these fields. */
  private static final class Values {
    volatile double published;
    volatile double delivered;
    volatile double filteredOut;
    volatile double failed;
    final List<Meter> meters = new ArrayList<>();
  }

  private final MeterRegistry registry;
  private final Map<TopicKey, Values> byTopic = new HashMap<>();

  TopicCounters(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Takes a fresh sample of every topic; synchronized because two scrapes may overlap. */
  synchronized void update(List<TopicSample> samples) {
    Set<TopicKey> seen = new HashSet<>();
    for (TopicSample s : samples) {
      seen.add(s.topic());
      Values v = byTopic.computeIfAbsent(s.topic(), this::register);
      v.published = s.published();
      v.delivered = s.delivered();
      v.filteredOut = s.filteredOut();
      v.failed = s.failed();
    }
    byTopic.entrySet().removeIf(e -> {
      if (seen.contains(e.getKey())) {
        return false;
      }
      e.getValue().meters.forEach(registry::remove);
      return true;
    });
  }

  private Values register(TopicKey key) {
    Values v = new Values();
    Tags topic = Tags.of(MetricNames.TOPIC_TAG, key.name(), MetricNames.ACCOUNT_TAG, key.accountId(),
        MetricNames.REGION_TAG, key.region());
    v.meters.add(FunctionCounter.builder(MetricNames.TOPIC_PUBLISHED, v, x -> x.published)
        .description("Publishes the topic accepted").tags(topic).register(registry));
    v.meters.add(FunctionCounter.builder(MetricNames.TOPIC_DELIVERED, v, x -> x.delivered)
        .description("Copies stored in subscribed queues").tags(topic).register(registry));
    v.meters.add(FunctionCounter.builder(MetricNames.TOPIC_FILTERED, v, x -> x.filteredOut)
        .description("Subscriptions a publish's filter policy kept it from").tags(topic).register(registry));
    v.meters.add(FunctionCounter.builder(MetricNames.TOPIC_FAILED, v, x -> x.failed)
        .description("Copies dropped or not stored").tags(topic).register(registry));
    return v;
  }
}
