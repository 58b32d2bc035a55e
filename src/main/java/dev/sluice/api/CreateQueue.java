package dev.sluice.api;

import java.util.Map;

/** CreateQueue (sqs-reference §2.1). Note the lower-case {@code tags} member on the wire. */
public final class CreateQueue {
  private CreateQueue() {}

  public record Request(String queueName, Map<String, String> attributes, Map<String, String> tags) {}

  public record Response(String queueUrl) {}
}
