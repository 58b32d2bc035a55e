package dev.sluice.api.topics;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;

/**
 * One publish as a push subscriber of its topic is given it: its id, the FIFO sequence number
 * (null on standard topics), the topic, subject (or null), the message, when it was published (as SNS
 * writes a Timestamp) and its message attributes (empty for none).
 */
public record TopicNotification(String messageId, String sequenceNumber, String topicArn, String subject,
    String message, String timestamp, Map<String, MessageAttributeValue> attributes) {}
