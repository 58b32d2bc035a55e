package dev.sluice.api;

import java.util.Map;

/** ListQueueTags (its page in the AWS API reference). */
public final class ListQueueTags {
  private ListQueueTags() {}

  public record Request(String queueUrl) {}

  public record Response(Map<String, String> tags) {}
}
