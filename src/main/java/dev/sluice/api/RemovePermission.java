package dev.sluice.api;

/** RemovePermission (its page in the AWS API reference). */
public final class RemovePermission {
  private RemovePermission() {}

  public record Request(String queueUrl, String label) {}
}
