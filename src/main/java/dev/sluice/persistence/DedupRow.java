package dev.sluice.persistence;

import java.util.UUID;

/** One FIFO deduplication entry as {@code sluice_dedup} holds it (schema V1). */
public record DedupRow(long queueId, String dedupKey, UUID messageId, long sequenceNumber, long expiresAt) {}
