package dev.sluice.api.topics;

import java.util.List;

/** UntagResource (its page in the SNS API reference): removes the named tags from a topic. */
public final class UntagResource {
  private UntagResource() {}

  public record Request(String resourceArn, List<String> tagKeys) {}
}
