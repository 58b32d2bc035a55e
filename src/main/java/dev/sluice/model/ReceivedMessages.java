package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Snapshots a message as one receive sees it. The snapshot is immutable, so the shard may keep
 * changing the message while another event loop writes the response.
 */
final class ReceivedMessages {
  private ReceivedMessages() {}

  static ReceiveMessage.Message view(Message m, String receiptHandle, AttributeSelection sel) {
    PackedContent c = m.content(); // decoded once from the record: the view holds nothing of the slab
    Map<String, String> system = new LinkedHashMap<>();
    putIf(system, sel, "SenderId", c.senderId());
    putIf(system, sel, "SentTimestamp", Long.toString(m.sentAtMillis));
    putIf(system, sel, "ApproximateReceiveCount", Integer.toString(m.receiveCount()));
    putIf(system, sel, "ApproximateFirstReceiveTimestamp", Long.toString(m.firstReceiveAtMillis()));
    // The conditional ones appear only when the message has them (AWS API reference: ReceiveMessage).
    putIf(system, sel, "AWSTraceHeader", c.traceHeader());
    putIf(system, sel, "MessageGroupId", m.groupId);
    putIf(system, sel, "MessageDeduplicationId", c.deduplicationId());
    putIf(system, sel, "SequenceNumber", SequenceNumbers.format(m.sequenceNumber));
    putIf(system, sel, "DeadLetterQueueSourceArn", c.deadLetterSourceArn());
    Map<String, MessageAttributeValue> user = sel.selectUser(c.attributes());
    String md5 = user == null ? null : user == c.attributes() ? m.md5OfAttributes() : Digests.md5OfAttributes(user);
    return new ReceiveMessage.Message(
        m.messageId(), receiptHandle, m.md5OfBody(), c.body(), system.isEmpty() ? null : system, md5, user);
  }

  private static void putIf(Map<String, String> out, AttributeSelection sel, String name, String value) {
    if (value != null && sel.wantsSystem(name)) {
      out.put(name, value);
    }
  }
}
