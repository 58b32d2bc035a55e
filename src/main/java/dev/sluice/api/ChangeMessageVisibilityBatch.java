package dev.sluice.api;

import java.util.List;

/** ChangeMessageVisibilityBatch (its page in the AWS API reference); answered with a {@link BatchIdsResponse}. */
public final class ChangeMessageVisibilityBatch {
  private ChangeMessageVisibilityBatch() {}

  public record Request(String queueUrl, List<Entry> entries) {}

  public record Entry(String id, String receiptHandle, Integer visibilityTimeout) {}
}
