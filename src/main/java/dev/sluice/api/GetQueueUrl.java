package dev.sluice.api;

/** GetQueueUrl (its page in the AWS API reference). */
public final class GetQueueUrl {
  private GetQueueUrl() {}

  public record Request(String queueName, String queueOwnerAwsAccountId) {}

  public record Response(String queueUrl) {}
}
