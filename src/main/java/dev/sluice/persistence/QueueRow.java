package dev.sluice.persistence;

/**
 * One queue as the {@code sluice_queues} table holds it (schema V1, with its account and region
 * since V3); id is the queue's generation.
 */
public record QueueRow(long id, String accountId, String region, String name, long createdAt, long modifiedAt,
    String attributesJson, String tagsJson) {}
