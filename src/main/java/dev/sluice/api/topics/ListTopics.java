package dev.sluice.api.topics;

import java.util.List;

/** ListTopics (its page in the SNS API reference): 100 ARNs a page, and a NextToken while more follow. */
public final class ListTopics {
  private ListTopics() {}

  public record Request(String nextToken) {}

  public record Response(List<String> topicArns, String nextToken) {}
}
