package dev.sluice.engine;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.model.Arrival;
import dev.sluice.model.Message;
import dev.sluice.model.PackedContent;
import dev.sluice.model.RestoredMessage;
import java.util.Map;
import java.util.UUID;

/**
 * A message on its way to a queue on another node (a dead letter, or a move task's, design page
 * cluster.md, §2.13):
 * its content and receive history, and the row it leaves, which the receiving node deletes in the
 * same write that stores it there.
 */
public record MessageTransfer(
    String messageId,
    String body,
    Map<String, MessageAttributeValue> attributes,
    String traceHeader,
    String senderId,
    long sentAtMillis,
    String groupId,
    String deduplicationId,
    long sequenceNumber,
    String deadLetterSourceArn,
    int receiveCount,
    long firstReceiveAtMillis,
    long originQueueId,
    long originKey) {

  /**
   * {@code m}, detached from its queue for the move, built from its travelling content (decoded
   * once; the record shape, and so the cluster codec, is unchanged: design/tails.md §5 Q4).
   */
  static MessageTransfer of(Message m) {
    PackedContent c = m.content();
    return new MessageTransfer(m.messageId(), c.body(), c.attributes(), c.traceHeader(), c.senderId(),
        m.sentAtMillis(), m.groupId(), c.deduplicationId(), m.sequenceNumber(), c.deadLetterSourceArn(),
        m.receiveCount(), m.firstReceiveAtMillis(), m.originQueueId(), m.originKey());
  }

  /** The content as the model rebuilds a message from it (its key and places are the new queue's). */
  RestoredMessage content() {
    return RestoredMessage.of(0, UUID.fromString(messageId), body, attributes, traceHeader, senderId, sentAtMillis,
        groupId, deduplicationId, sequenceNumber, deadLetterSourceArn, 0, receiveCount, firstReceiveAtMillis, 0, 0,
        Arrival.KEPT_SENT_TIME);
  }
}
