package dev.sluice.api;

import java.util.List;

/** ListQueues (its page in the AWS API reference). */
public final class ListQueues {
  private ListQueues() {}

  public record Request(String queueNamePrefix, Integer maxResults, String nextToken) {}

  public record Response(List<String> queueUrls, String nextToken) {}
}
