package dev.sluice.api;

/** DeleteQueue (sqs-reference §2.2). */
public final class DeleteQueue {
  private DeleteQueue() {}

  public record Request(String queueUrl) {}
}
