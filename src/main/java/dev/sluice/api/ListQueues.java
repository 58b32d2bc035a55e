package dev.sluice.api;

import java.util.List;

/** ListQueues (sqs-reference §2.3). */
public final class ListQueues {
  private ListQueues() {}

  public record Request(String queueNamePrefix, Integer maxResults, String nextToken) {}

  public record Response(List<String> queueUrls, String nextToken) {}
}
