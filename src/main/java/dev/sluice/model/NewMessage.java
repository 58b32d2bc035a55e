package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;

/**
 * A message to enqueue, as sent (one SendMessage or one SendMessageBatch entry) plus the sender's
 * identity and the HTTP trace header. Validated by the queue it is sent to.
 */
public record NewMessage(
    String body,
    Integer delaySeconds,
    Map<String, MessageAttributeValue> attributes,
    Map<String, MessageAttributeValue> systemAttributes,
    String deduplicationId,
    String groupId,
    String senderId,
    String httpTraceHeader) {}
