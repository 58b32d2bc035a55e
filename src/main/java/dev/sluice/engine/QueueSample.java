package dev.sluice.engine;

import dev.sluice.api.QueueKey;

/**
 * One queue's counts at one moment, read on its shard for the metrics: what GetQueueAttributes
 * would say, plus the age of its oldest message in milliseconds (0 when it holds none).
 */
public record QueueSample(QueueKey queue, int visible, int inflight, int delayed, long oldestAgeMillis) {}
