package dev.sluice.api;

import java.util.List;

/** ListMessageMoveTasks (its page in the AWS API reference). */
public final class ListMessageMoveTasks {
  private ListMessageMoveTasks() {}

  public record Request(String sourceArn, Integer maxResults) {}

  /**
   * One task, newest first. {@code taskHandle} only while running; {@code destinationArn} and
   * {@code maxNumberOfMessagesPerSecond} only if given at start; {@code failureReason} only if failed.
   */
  public record Result(
      String taskHandle,
      String status,
      String sourceArn,
      String destinationArn,
      Integer maxNumberOfMessagesPerSecond,
      long approximateNumberOfMessagesMoved,
      long approximateNumberOfMessagesToMove,
      String failureReason,
      long startedTimestamp) {}

  public record Response(List<Result> results) {}
}
