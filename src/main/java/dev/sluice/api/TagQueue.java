package dev.sluice.api;

import java.util.Map;

/** TagQueue (sqs-reference §2.7). */
public final class TagQueue {
  private TagQueue() {}

  public record Request(String queueUrl, Map<String, String> tags) {}
}
