package dev.sluice.engine;

import java.util.List;

/**
 * Every queue's counts and the long polls parked, over all shards, for the metrics; the rows page
 * reads brought back that were resident already (paged mode), which must stay 0; every topic's
 * counts; the bytes of the shards' content slabs, live records and chunks held.
 */
public record EngineSample(List<QueueSample> queues, int parkedReceives, long backlogDuplicateRows,
    List<TopicSample> topics, long slabLiveBytes, long slabAllocatedBytes) {}
