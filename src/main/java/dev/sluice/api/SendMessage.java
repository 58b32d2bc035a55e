package dev.sluice.api;

import java.util.Map;

/** SendMessage (its page in the AWS API reference). */
public final class SendMessage {
  private SendMessage() {}

  public record Request(
      String queueUrl,
      String messageBody,
      Integer delaySeconds,
      Map<String, MessageAttributeValue> messageAttributes,
      Map<String, MessageAttributeValue> messageSystemAttributes,
      String messageDeduplicationId,
      String messageGroupId) {}

  public record Response(
      String messageId,
      String md5OfMessageBody,
      String md5OfMessageAttributes,
      String md5OfMessageSystemAttributes,
      String sequenceNumber) {}
}
