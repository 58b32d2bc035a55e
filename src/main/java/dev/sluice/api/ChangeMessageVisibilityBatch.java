package dev.sluice.api;

import java.util.List;

/** ChangeMessageVisibilityBatch (sqs-reference §2.14); answered with a {@link BatchIdsResponse}. */
public final class ChangeMessageVisibilityBatch {
  private ChangeMessageVisibilityBatch() {}

  public record Request(String queueUrl, List<Entry> entries) {}

  public record Entry(String id, String receiptHandle, Integer visibilityTimeout) {}
}
