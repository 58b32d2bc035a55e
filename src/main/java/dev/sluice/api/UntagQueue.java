package dev.sluice.api;

import java.util.List;

/** UntagQueue (sqs-reference §2.7): unknown keys are ignored. */
public final class UntagQueue {
  private UntagQueue() {}

  public record Request(String queueUrl, List<String> tagKeys) {}
}
