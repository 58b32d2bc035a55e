package dev.sluice.config;

import java.util.List;

/**
 * Operations: metrics on or off, the stop's grace period, the queues and topics to create at
 * start-up, and the triggers the configuration keeps.
 */
public record OpsConfig(boolean metricsEnabled, int shutdownGraceMillis, List<QueueDefinition> queues,
    List<TopicDefinition> topics, List<TriggerDefinition> triggers) {}
