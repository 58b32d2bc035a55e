package dev.sluice.api;

import java.util.Map;

/** SetQueueAttributes (sqs-reference §2.6). */
public final class SetQueueAttributes {
  private SetQueueAttributes() {}

  public record Request(String queueUrl, Map<String, String> attributes) {}
}
