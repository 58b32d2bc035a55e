package dev.sluice.api.topics;

import java.util.Map;

/** GetTopicAttributes (its page in the SNS API reference): every attribute the topic has. */
public final class GetTopicAttributes {
  private GetTopicAttributes() {}

  public record Request(String topicArn) {}

  public record Response(Map<String, String> attributes) {}
}
