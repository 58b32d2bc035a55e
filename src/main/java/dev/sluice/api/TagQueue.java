package dev.sluice.api;

import java.util.Map;

/** TagQueue (its page in the AWS API reference). */
public final class TagQueue {
  private TagQueue() {}

  public record Request(String queueUrl, Map<String, String> tags) {}
}
