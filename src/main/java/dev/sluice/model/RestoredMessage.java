package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;
import java.util.UUID;

/**
 * A message as the durable store gives it back (at start-up, in a page read, or from another node):
 * what was sent, as its row's {@code content} bytes (format version 1, {@link PackedContent}), which
 * the model writes into its slab without decoding, and its delivery state.
 * {@code visibleAtMillis} is when its delay or visibility ends (0 or past: visible now);
 * {@code firstVisibleAtMillis} and {@code arrival} are its place in delivery order and how it
 * entered the queue (see {@link Message#arrival()}); {@code inBackoff}: received, it waits out its
 * queue's redelivery backoff until {@code visibleAtMillis} (else, received, it is in flight until then).
 */
public record RestoredMessage(
    long key,
    UUID messageId,
    byte[] content,
    long sentAtMillis,
    long sequenceNumber,
    long visibleAtMillis,
    int receiveCount,
    long firstReceiveAtMillis,
    int receiptSequence,
    long firstVisibleAtMillis,
    Arrival arrival,
    boolean inBackoff) {

  /** A row not in backoff. */
  public RestoredMessage(long key, UUID messageId, byte[] content, long sentAtMillis, long sequenceNumber,
      long visibleAtMillis, int receiveCount, long firstReceiveAtMillis, int receiptSequence,
      long firstVisibleAtMillis, Arrival arrival) {
    this(key, messageId, content, sentAtMillis, sequenceNumber, visibleAtMillis, receiveCount, firstReceiveAtMillis,
        receiptSequence, firstVisibleAtMillis, arrival, false);
  }

  /** A row with this content, encoded as its column holds it (tests, and transfers between nodes). */
  public static RestoredMessage of(long key, UUID messageId, String body, Map<String, MessageAttributeValue> attributes,
      String traceHeader, String senderId, long sentAtMillis, String groupId, String deduplicationId,
      long sequenceNumber, String deadLetterSourceArn, long visibleAtMillis, int receiveCount,
      long firstReceiveAtMillis, int receiptSequence, long firstVisibleAtMillis, Arrival arrival) {
    var sorted = attributes == null || attributes.isEmpty() ? null : new java.util.TreeMap<>(attributes);
    byte[] content = new PackedContent(body, sorted, traceHeader, senderId, groupId, deduplicationId,
        deadLetterSourceArn).encode();
    return new RestoredMessage(key, messageId, content, sentAtMillis, sequenceNumber, visibleAtMillis, receiveCount,
        firstReceiveAtMillis, receiptSequence, firstVisibleAtMillis, arrival);
  }

  /** Its content decoded (tests and diagnostics; the model itself keeps the bytes). */
  public PackedContent decoded() {
    return PackedContent.decode(content);
  }

  /** Its body, decoded. */
  public String body() {
    return decoded().body();
  }
}
