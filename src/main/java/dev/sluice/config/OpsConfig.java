package dev.sluice.config;

import java.util.List;

/** Operations: metrics on or off, the stop's grace period, and the queues to create at start-up. */
public record OpsConfig(boolean metricsEnabled, int shutdownGraceMillis, List<QueueDefinition> queues,
    List<TopicDefinition> topics) {}
