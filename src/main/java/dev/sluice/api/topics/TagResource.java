package dev.sluice.api.topics;

import java.util.Map;

/** TagResource (its page in the SNS API reference): adds tags to a topic, or overwrites their values. */
public final class TagResource {
  private TagResource() {}

  public record Request(String resourceArn, Map<String, String> tags) {}
}
