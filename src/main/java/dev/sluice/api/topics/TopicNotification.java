package dev.sluice.api.topics;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;

/**
 * One publish as a push subscriber of its topic is given it: its id, the FIFO sequence number
 * (null on standard topics), the topic, subject (or null), the message, when it was published and
 * its message attributes (empty for none).
 */
public record TopicNotification(String messageId, String sequenceNumber, String topicArn, String subject,
    String message, long timestampMillis, Map<String, MessageAttributeValue> attributes) {}
