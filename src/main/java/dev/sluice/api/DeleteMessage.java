package dev.sluice.api;

/** DeleteMessage (its page in the AWS API reference). */
public final class DeleteMessage {
  private DeleteMessage() {}

  public record Request(String queueUrl, String receiptHandle) {}
}
