package dev.sluice.model;

import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Keeps no state: builds, for a queue's message store, a message arriving from a send or from the
 * durable store, its content packed into a payload (design/tails.md §2.5), and tells how many bytes
 * it is charged to the memory budget.
 */
final class ArrivingMessages {
  /** Per-message bookkeeping charged to the memory budget on top of its content's record. */
  static final int MESSAGE_OVERHEAD_BYTES = 320;

  private ArrivingMessages() {}

  /**
   * What a message with this payload is charged: its record in the slab and the overhead (§2.6), so
   * the budget still counts the bytes messages take.
   */
  static int heldBytes(byte[] payload) {
    return heldBytes(payload.length);
  }

  static int heldBytes(int payloadLength) {
    return ContentSlab.recordSize(payloadLength) + MESSAGE_OVERHEAD_BYTES;
  }

  /** A checked send's content, its attributes sorted by name: packed once, where it is kept. */
  static PackedContent content(NewMessage m, String dedupId) {
    String trace = m.systemAttributes() != null && m.systemAttributes().containsKey(MessageValidation.AWS_TRACE_HEADER)
        ? m.systemAttributes().get(MessageValidation.AWS_TRACE_HEADER).stringValue()
        : m.httpTraceHeader();
    var attrs = m.attributes() == null || m.attributes().isEmpty() ? null : new TreeMap<>(m.attributes());
    return new PackedContent(m.body(), attrs, trace, m.senderId(), m.groupId(), dedupId, null);
  }

  /** A checked send as a new message with a new MessageId; its store writes its content. */
  static Message sent(NewMessage m, long key, int heldBytes, long sequenceNumber, long nowMillis) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] md5 = Digests.md5(m.body());
    return Message.fresh(key, random.nextLong(), random.nextLong(), Bytes.longAt(md5, 0), Bytes.longAt(md5, 8),
        nowMillis, m.groupId(), sequenceNumber, heldBytes);
  }

  /** The payload of a row's content: its bytes as they are, plus the attributes' MD5 if any. */
  static byte[] payload(RestoredMessage r) {
    return PackedContent.packEncoded(r.content());
  }

  /**
   * A message as its row describes it, with its receive history, its content as travelling content
   * (its store writes it into the slab if it stays); {@code nowMillis} starts the current receive of
   * a message that was in flight. The body is never decoded: its MD5 is taken from its bytes.
   */
  static Message restored(RestoredMessage r, byte[] payload, int heldBytes, long nowMillis) {
    byte[] md5 = PackedContent.bodyMd5(payload, 0, payload.length);
    Message m = new Message(r.key(), r.messageId().getMostSignificantBits(), r.messageId().getLeastSignificantBits(),
        Bytes.longAt(md5, 0), Bytes.longAt(md5, 8), r.sentAtMillis(), PackedContent.groupId(payload, 0, payload.length),
        r.sequenceNumber(), heldBytes);
    m.travelling = payload;
    m.restoreHistory(r.receiveCount(), r.firstReceiveAtMillis(), r.receiptSequence(),
        r.receiveCount() > 0 ? nowMillis : 0);
    return m;
  }
}
