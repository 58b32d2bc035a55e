package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;

/**
 * One stored message. The immutable part is what was sent; the mutable part is its delivery state.
 * Owned by the shard event loop that owns its queue; its timing (delay, visibility) lives in that
 * shard's {@link DueTimeIndex}, and {@link #prev}/{@link #next} link it into its queue's ready list.
 */
public final class Message extends Timed {
  final long key;
  final String messageId;
  final String body;
  final String md5OfBody;
  /** User attributes sorted by name, or null. */
  final Map<String, MessageAttributeValue> attributes;
  final String md5OfAttributes;
  final String traceHeader;
  final String senderId;
  final long sentAtMillis;
  final String groupId;
  final String deduplicationId;
  final String sequenceNumber;
  /** Bytes charged against the memory budget while the message is held. */
  final long heldBytes;

  QueueState owner;
  MessageState state = MessageState.GONE;
  int receiveCount;
  long firstReceiveAtMillis;
  /** When the current receive started: ChangeMessageVisibility may not pass 12 h after it. */
  long receivedAtMillis;
  /** Counts receives; a receipt handle names the one it came from. */
  int receiptSequence;
  Message prev;
  Message next;

  Message(
      long key,
      String messageId,
      String body,
      String md5OfBody,
      Map<String, MessageAttributeValue> attributes,
      String md5OfAttributes,
      String traceHeader,
      String senderId,
      long sentAtMillis,
      String groupId,
      String deduplicationId,
      String sequenceNumber,
      long heldBytes) {
    this.key = key;
    this.messageId = messageId;
    this.body = body;
    this.md5OfBody = md5OfBody;
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
    return messageId;
  }

  public String body() {
    return body;
  }

  public MessageState state() {
    return state;
  }

  public int receiveCount() {
    return receiveCount;
  }

  public long sentAtMillis() {
    return sentAtMillis;
  }

  @Override
  public void onDue(long nowMillis) {
    owner.onMessageDue(this, nowMillis);
  }
}
