package dev.sluice.api.topics;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;

/**
 * Publish (its page in the SNS API reference): to a topic named by {@code topicArn} or
 * {@code targetArn}; {@code messageAttributes} may be null. The answer carries a SequenceNumber on
 * FIFO topics only.
 */
public final class Publish {
  private Publish() {}

  public record Request(String topicArn, String targetArn, String phoneNumber, String message, String subject,
      String messageStructure, Map<String, MessageAttributeValue> messageAttributes, String messageGroupId,
      String messageDeduplicationId) {}

  public record Response(String messageId, String sequenceNumber) {}
}
