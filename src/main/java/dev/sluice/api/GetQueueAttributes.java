package dev.sluice.api;

import java.util.List;
import java.util.Map;

/** GetQueueAttributes (its page in the AWS API reference). */
public final class GetQueueAttributes {
  private GetQueueAttributes() {}

  public record Request(String queueUrl, List<String> attributeNames) {}

  public record Response(Map<String, String> attributes) {}
}
