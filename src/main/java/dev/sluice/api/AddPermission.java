package dev.sluice.api;

import java.util.List;

/** AddPermission (its page in the AWS API reference): appends a statement to the queue's Policy. */
public final class AddPermission {
  private AddPermission() {}

  public record Request(String queueUrl, String label, List<String> awsAccountIds, List<String> actions) {}
}
