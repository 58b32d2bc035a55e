package dev.sluice.engine;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.model.Arrival;
import dev.sluice.model.Message;
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

  /** {@code m}, read on its queue's shard, as it leaves the queue with generation {@code queueId}. */
  static MessageTransfer of(Message m) {
    return new MessageTransfer(m.messageId(), m.body(), m.attributes(), m.traceHeader(), m.senderId(),
        m.sentAtMillis(), m.groupId(), m.deduplicationId(), m.sequenceNumber(), m.deadLetterSourceArn(),
        m.receiveCount(), m.firstReceiveAtMillis(), m.originQueueId(), m.originKey());
  }

  /** The content as the model rebuilds a message from it (its key and places are the new queue's). */
  RestoredMessage content() {
    return new RestoredMessage(0, UUID.fromString(messageId), body, attributes, traceHeader, senderId, sentAtMillis,
        groupId, deduplicationId, sequenceNumber, deadLetterSourceArn, 0, receiveCount, firstReceiveAtMillis, 0, 0,
        Arrival.KEPT_SENT_TIME);
  }
}
