package dev.sluice.api;

import java.util.List;

/** DeleteMessageBatch (its page in the AWS API reference); answered with a {@link BatchIdsResponse}. */
public final class DeleteMessageBatch {
  private DeleteMessageBatch() {}

  public record Request(String queueUrl, List<Entry> entries) {}

  public record Entry(String id, String receiptHandle) {}
}
