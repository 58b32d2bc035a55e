package dev.sluice.api;

/** PurgeQueue (sqs-reference §2.15). */
public final class PurgeQueue {
  private PurgeQueue() {}

  public record Request(String queueUrl) {}
}
