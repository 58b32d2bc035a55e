package dev.sluice.model;

import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Keeps no state: builds, for a queue's message store, a message arriving from a send or from the
 * durable store, and tells how many bytes it is charged to the memory budget.
 */
final class ArrivingMessages {
  /** Per-message bookkeeping charged to the memory budget on top of the payload. */
  static final int MESSAGE_OVERHEAD_BYTES = 320;

  private ArrivingMessages() {}

  /** What a sent message of {@code payload} bytes (as SQS counts them) is charged. */
  static int heldBytes(NewMessage m, long payload) {
    // Charged as the heap holds it: a body with any character above U+00FF is stored as UTF-16.
    return (int) Math.max(payload, MessageValidation.heapBytes(m.body(), m.attributes())) + MESSAGE_OVERHEAD_BYTES;
  }

  /** A checked send as a new message with a new MessageId, its attributes sorted by name. */
  static Message sent(NewMessage m, long key, int heldBytes, String dedupId, long sequenceNumber, long nowMillis) {
    String trace = m.systemAttributes() != null && m.systemAttributes().containsKey(MessageValidation.AWS_TRACE_HEADER)
        ? m.systemAttributes().get(MessageValidation.AWS_TRACE_HEADER).stringValue()
        : m.httpTraceHeader();
    var attrs = m.attributes() == null || m.attributes().isEmpty() ? null : new TreeMap<>(m.attributes());
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] md5 = Digests.md5(m.body());
    return new Message(
        key, random.nextLong(), random.nextLong(), m.body(), Bytes.longAt(md5, 0), Bytes.longAt(md5, 8),
        attrs, Digests.md5OfAttributes(attrs), trace, m.senderId(), nowMillis, m.groupId(), dedupId, sequenceNumber,
        heldBytes);
  }

  /** What a message restored from the durable store is charged. */
  static int heldBytes(RestoredMessage r) {
    return (int) Math.max(MessageValidation.payloadBytes(r.body(), r.attributes()),
        MessageValidation.heapBytes(r.body(), r.attributes())) + MESSAGE_OVERHEAD_BYTES;
  }

  /**
   * A message as its row describes it, with its receive history; {@code nowMillis} starts the
   * current receive of a message that was in flight.
   */
  static Message restored(RestoredMessage r, int heldBytes, long nowMillis) {
    var attrs = r.attributes() == null || r.attributes().isEmpty() ? null : new TreeMap<>(r.attributes());
    byte[] md5 = Digests.md5(r.body());
    Message m = new Message(r.key(), r.messageId().getMostSignificantBits(), r.messageId().getLeastSignificantBits(),
        r.body(), Bytes.longAt(md5, 0), Bytes.longAt(md5, 8), attrs, Digests.md5OfAttributes(attrs), r.traceHeader(),
        r.senderId(), r.sentAtMillis(), r.groupId(), r.deduplicationId(), r.sequenceNumber(), r.deadLetterSourceArn(),
        heldBytes);
    m.restoreHistory(r.receiveCount(), r.firstReceiveAtMillis(), r.receiptSequence(),
        r.receiveCount() > 0 ? nowMillis : 0);
    return m;
  }
}
