package dev.sluice.api;

import java.util.Map;

/** SetQueueAttributes (its page in the AWS API reference). */
public final class SetQueueAttributes {
  private SetQueueAttributes() {}

  public record Request(String queueUrl, Map<String, String> attributes) {}
}
