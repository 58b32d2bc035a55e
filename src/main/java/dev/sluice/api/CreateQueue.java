package dev.sluice.api;

import java.util.Map;

/** CreateQueue (its page in the AWS API reference). Note the lower-case {@code tags} member on the wire. */
public final class CreateQueue {
  private CreateQueue() {}

  public record Request(String queueName, Map<String, String> attributes, Map<String, String> tags) {}

  public record Response(String queueUrl) {}
}
