package dev.sluice.api.topics;

import java.util.Map;

/** CreateTopic (its page in the SNS API reference); {@code Attributes} and {@code Tags} may be null. */
public final class CreateTopic {
  private CreateTopic() {}

  public record Request(String name, Map<String, String> attributes, Map<String, String> tags) {}

  public record Response(String topicArn) {}
}
