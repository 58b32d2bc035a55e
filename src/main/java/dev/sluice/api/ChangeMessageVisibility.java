package dev.sluice.api;

/** ChangeMessageVisibility (its page in the AWS API reference). */
public final class ChangeMessageVisibility {
  private ChangeMessageVisibility() {}

  public record Request(String queueUrl, String receiptHandle, Integer visibilityTimeout) {}
}
