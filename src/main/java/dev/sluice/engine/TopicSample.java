package dev.sluice.engine;

import dev.sluice.api.topics.TopicKey;

/**
 * One topic's counts since it was made or loaded, for the metrics: publishes accepted, copies
 * stored in their queues, subscriptions a publish's filter policy kept it from, and copies dropped
 * or not stored.
 */
public record TopicSample(TopicKey topic, long published, long delivered, long filteredOut, long failed) {}
