package dev.sluice.persistence;

import java.util.UUID;

/**
 * One message as the {@code sluice_messages} table holds it: its place (queue, key, FIFO sequence
 * number), its identity and send time, its delivery state, and its packed content (format version 1,
 * {@code model.PackedContent}).
 * {@code visibleAt} is when a delay or visibility ends, 0 when visible. {@code firstVisibleAt} and
 * {@code arrival} never change: its place in a standard queue's delivery order and how it entered
 * its queue (0 sent, 1 kept its earlier sent time, 2 redriven). {@code inBackoff}: received, it
 * waits out its queue's redelivery backoff until {@code visibleAt} (V12).
 */
public record MessageRow(
    long queueId,
    long messageKey,
    UUID messageId,
    long sentAt,
    long sequenceNumber,
    long visibleAt,
    int receiveCount,
    long firstReceiveAt,
    int receiptSequence,
    long firstVisibleAt,
    short arrival,
    byte[] content,
    boolean inBackoff) {

  /** A row not in backoff, as every message is when it is first stored. */
  public MessageRow(long queueId, long messageKey, UUID messageId, long sentAt, long sequenceNumber, long visibleAt,
      int receiveCount, long firstReceiveAt, int receiptSequence, long firstVisibleAt, short arrival, byte[] content) {
    this(queueId, messageKey, messageId, sentAt, sequenceNumber, visibleAt, receiveCount, firstReceiveAt,
        receiptSequence, firstVisibleAt, arrival, content, false);
  }

  /** The same message with its delivery state as a later change left it. */
  MessageRow with(DeliveryState s) {
    return new MessageRow(queueId, messageKey, messageId, sentAt, sequenceNumber, s.visibleAt(), s.receiveCount(),
        s.firstReceiveAt(), s.receiptSequence(), firstVisibleAt, arrival, content, s.inBackoff());
  }
}
