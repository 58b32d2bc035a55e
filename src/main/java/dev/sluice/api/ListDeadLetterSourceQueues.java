package dev.sluice.api;

import java.util.List;

/** ListDeadLetterSourceQueues (its page in the AWS API reference). */
public final class ListDeadLetterSourceQueues {
  private ListDeadLetterSourceQueues() {}

  public record Request(String queueUrl, Integer maxResults, String nextToken) {}

  public record Response(List<String> queueUrls, String nextToken) {}
}
