package dev.sluice.api;

/** ChangeMessageVisibility (sqs-reference §2.13). */
public final class ChangeMessageVisibility {
  private ChangeMessageVisibility() {}

  public record Request(String queueUrl, String receiptHandle, Integer visibilityTimeout) {}
}
