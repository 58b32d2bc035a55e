package dev.sluice.api;

import java.util.List;
import java.util.Map;

/** SendMessageBatch (its page in the AWS API reference). */
public final class SendMessageBatch {
  private SendMessageBatch() {}

  public record Request(String queueUrl, List<Entry> entries) {}

  public record Entry(
      String id,
      String messageBody,
      Integer delaySeconds,
      Map<String, MessageAttributeValue> messageAttributes,
      Map<String, MessageAttributeValue> messageSystemAttributes,
      String messageDeduplicationId,
      String messageGroupId) {}

  public record ResultEntry(
      String id,
      String messageId,
      String md5OfMessageBody,
      String md5OfMessageAttributes,
      String md5OfMessageSystemAttributes,
      String sequenceNumber) {}

  public record Response(List<ResultEntry> successful, List<BatchResultErrorEntry> failed) {}
}
