package dev.sluice.api;

/** RemovePermission (sqs-reference §2.18). */
public final class RemovePermission {
  private RemovePermission() {}

  public record Request(String queueUrl, String label) {}
}
