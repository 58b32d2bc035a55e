package dev.sluice.api;

import java.util.List;
import java.util.Map;

/** ReceiveMessage (its page in the AWS API reference). */
public final class ReceiveMessage {
  private ReceiveMessage() {}

  public record Request(
      String queueUrl,
      List<String> attributeNames,
      List<String> messageSystemAttributeNames,
      List<String> messageAttributeNames,
      Integer maxNumberOfMessages,
      Integer visibilityTimeout,
      Integer waitTimeSeconds,
      String receiveRequestAttemptId) {}

  /** One received message; {@code attributes} are the selected system attributes. */
  public record Message(
      String messageId,
      String receiptHandle,
      String md5OfBody,
      String body,
      Map<String, String> attributes,
      String md5OfMessageAttributes,
      Map<String, MessageAttributeValue> messageAttributes) {}

  public record Response(List<Message> messages) {}
}
