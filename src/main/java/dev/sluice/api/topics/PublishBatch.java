package dev.sluice.api.topics;

import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.MessageAttributeValue;
import java.util.List;
import java.util.Map;

/** PublishBatch (its page in the SNS API reference): up to 10 entries, answered entry by entry. */
public final class PublishBatch {
  private PublishBatch() {}

  public record Request(String topicArn, List<Entry> entries) {}

  public record Entry(String id, String message, String subject, String messageStructure,
      Map<String, MessageAttributeValue> messageAttributes, String messageGroupId, String messageDeduplicationId) {}

  public record ResultEntry(String id, String messageId, String sequenceNumber) {}

  public record Response(List<ResultEntry> successful, List<BatchResultErrorEntry> failed) {}
}
