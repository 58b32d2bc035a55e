package dev.sluice.api;

import java.util.List;

/** ListDeadLetterSourceQueues (sqs-reference §2.16). */
public final class ListDeadLetterSourceQueues {
  private ListDeadLetterSourceQueues() {}

  public record Request(String queueUrl, Integer maxResults, String nextToken) {}

  public record Response(List<String> queueUrls, String nextToken) {}
}
