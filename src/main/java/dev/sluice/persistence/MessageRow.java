package dev.sluice.persistence;

import java.util.UUID;

/**
 * One message as the {@code sluice_messages} table holds it (schema V1). {@code visibleAt} is when a
 * delay or visibility ends, 0 when visible.
 */
public record MessageRow(
    long queueId,
    long messageKey,
    UUID messageId,
    String body,
    String attributesJson,
    String traceHeader,
    String senderId,
    long sentAt,
    String groupId,
    String dedupId,
    long sequenceNumber,
    String deadLetterSourceArn,
    long visibleAt,
    int receiveCount,
    long firstReceiveAt,
    int receiptSequence) {

  /** The same message with its delivery state as a later change left it. */
  MessageRow with(DeliveryState s) {
    return new MessageRow(queueId, messageKey, messageId, body, attributesJson, traceHeader, senderId, sentAt,
        groupId, dedupId, sequenceNumber, deadLetterSourceArn, s.visibleAt(), s.receiveCount(), s.firstReceiveAt(),
        s.receiptSequence());
  }
}
