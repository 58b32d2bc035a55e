package dev.sluice.api;

/** DeleteMessage (sqs-reference §2.11). */
public final class DeleteMessage {
  private DeleteMessage() {}

  public record Request(String queueUrl, String receiptHandle) {}
}
