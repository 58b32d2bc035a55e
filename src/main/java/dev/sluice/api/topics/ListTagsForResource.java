package dev.sluice.api.topics;

import java.util.Map;

/** ListTagsForResource (its page in the SNS API reference): a topic's tags, in the order they were set. */
public final class ListTagsForResource {
  private ListTagsForResource() {}

  public record Request(String resourceArn) {}

  public record Response(Map<String, String> tags) {}
}
