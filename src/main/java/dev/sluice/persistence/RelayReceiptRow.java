package dev.sluice.persistence;

import java.util.UUID;

/** One receipt of an outbox row a queue stored, as {@code sluice_relay_receipts} holds it (schema V11). */
public record RelayReceiptRow(long queueId, String source, long rowId, UUID messageId) {}
