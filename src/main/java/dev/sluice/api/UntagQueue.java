package dev.sluice.api;

import java.util.List;

/** UntagQueue (its page in the AWS API reference): unknown keys are ignored. */
public final class UntagQueue {
  private UntagQueue() {}

  public record Request(String queueUrl, List<String> tagKeys) {}
}
