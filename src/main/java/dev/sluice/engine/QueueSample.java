package dev.sluice.engine;

/**
 * One queue's counts at one moment, read on its shard for the metrics: what GetQueueAttributes
 * would say, plus the age of its oldest message in milliseconds (0 when it holds none).
 */
public record QueueSample(String name, int visible, int inflight, int delayed, long oldestAgeMillis) {}
