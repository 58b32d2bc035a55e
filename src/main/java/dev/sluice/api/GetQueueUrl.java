package dev.sluice.api;

/** GetQueueUrl (sqs-reference §2.4). */
public final class GetQueueUrl {
  private GetQueueUrl() {}

  public record Request(String queueName, String queueOwnerAwsAccountId) {}

  public record Response(String queueUrl) {}
}
