package dev.sluice.api;

import java.util.List;

/** DeleteMessageBatch (sqs-reference §2.12); answered with a {@link BatchIdsResponse}. */
public final class DeleteMessageBatch {
  private DeleteMessageBatch() {}

  public record Request(String queueUrl, List<Entry> entries) {}

  public record Entry(String id, String receiptHandle) {}
}
