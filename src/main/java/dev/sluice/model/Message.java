package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/**
 * One stored message. The immutable part is what was sent; the mutable part is its delivery state.
 * Owned by the shard event loop that owns its queue; its timing (delay, visibility) lives in that
 * shard's {@link DueTimeIndex}, and {@link #prev}/{@link #next} link it into its queue's ready list.
 */
public final class Message extends Timed {
  final long key;
  /** The MessageId, a version-4 UUID kept as its two halves and formatted when asked. */
  private final long idHigh;
  private final long idLow;
  final String body;
  /** MD5 of the body, kept as 16 bytes in two longs and formatted as hex when asked. */
  private final long md5High;
  private final long md5Low;
  /** User attributes sorted by name, or null. */
  final Map<String, MessageAttributeValue> attributes;
  final String md5OfAttributes;
  final String traceHeader;
  final String senderId;
  final long sentAtMillis;
  final String groupId;
  final String deduplicationId;
  final String sequenceNumber;
  private static final HexFormat HEX = HexFormat.of();

  /** Bytes charged against the memory budget while the message is held. */
  final int heldBytes;

  QueueState owner;
  MessageState state = MessageState.GONE;
  int receiveCount;
  long firstReceiveAtMillis;
  /** When the current receive started: ChangeMessageVisibility may not pass 12 h after it. */
  long receivedAtMillis;
  /** Counts receives; a receipt handle names the one it came from. */
  int receiptSequence;
  /** Links in the queue's ready list (or a FIFO group's list). */
  Message prev;
  Message next;
  /** Links in the queue's send order, for retention. */
  Message sentPrev;
  Message sentNext;

  Message(
      long key,
      long randomHigh,
      long randomLow,
      String body,
      long md5High,
      long md5Low,
      Map<String, MessageAttributeValue> attributes,
      String md5OfAttributes,
      String traceHeader,
      String senderId,
      long sentAtMillis,
      String groupId,
      String deduplicationId,
      String sequenceNumber,
      int heldBytes) {
    this.key = key;
    this.idHigh = (randomHigh & 0xffffffffffff0fffL) | 0x0000000000004000L;
    this.idLow = (randomLow & 0x3fffffffffffffffL) | 0x8000000000000000L;
    this.body = body;
    this.md5High = md5High;
    this.md5Low = md5Low;
    this.attributes = attributes;
    this.md5OfAttributes = md5OfAttributes;
    this.traceHeader = traceHeader;
    this.senderId = senderId;
    this.sentAtMillis = sentAtMillis;
    this.groupId = groupId;
    this.deduplicationId = deduplicationId;
    this.sequenceNumber = sequenceNumber;
    this.heldBytes = heldBytes;
  }

  public String messageId() {
    return new UUID(idHigh, idLow).toString();
  }

  public String md5OfBody() {
    return HEX.toHexDigits(md5High) + HEX.toHexDigits(md5Low);
  }

  @Override
  public void onDue(long nowMillis) {
    owner.onMessageDue(this, nowMillis);
  }
}
