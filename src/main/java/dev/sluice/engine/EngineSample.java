package dev.sluice.engine;

import java.util.List;

/** Every queue's counts and the long polls parked, over all shards, for the metrics. */
public record EngineSample(List<QueueSample> queues, int parkedReceives) {}
