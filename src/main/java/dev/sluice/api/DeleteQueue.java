package dev.sluice.api;

/** DeleteQueue (its page in the AWS API reference). */
public final class DeleteQueue {
  private DeleteQueue() {}

  public record Request(String queueUrl) {}
}
