package dev.sluice.api;

import java.util.Map;

/** ListQueueTags (sqs-reference §2.7). */
public final class ListQueueTags {
  private ListQueueTags() {}

  public record Request(String queueUrl) {}

  public record Response(Map<String, String> tags) {}
}
