package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;
import java.util.UUID;

/**
 * A message as the durable store gives it back at start-up: what was sent, and its delivery state.
 * {@code visibleAtMillis} is when its delay or visibility ends (0 or past: visible now);
 * {@code firstVisibleAtMillis} and {@code arrival} are its place in delivery order and how it
 * entered the queue (see {@link Message#arrival()}).
 */
public record RestoredMessage(
    long key,
    UUID messageId,
    String body,
    Map<String, MessageAttributeValue> attributes,
    String traceHeader,
    String senderId,
    long sentAtMillis,
    String groupId,
    String deduplicationId,
    long sequenceNumber,
    String deadLetterSourceArn,
    long visibleAtMillis,
    int receiveCount,
    long firstReceiveAtMillis,
    int receiptSequence,
    long firstVisibleAtMillis,
    Arrival arrival) {}
