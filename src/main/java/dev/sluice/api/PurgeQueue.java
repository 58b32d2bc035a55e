package dev.sluice.api;

/** PurgeQueue (its page in the AWS API reference). */
public final class PurgeQueue {
  private PurgeQueue() {}

  public record Request(String queueUrl) {}
}
