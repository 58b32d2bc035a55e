package dev.sluice.api;

/** StartMessageMoveTask (sqs-reference §7.3). */
public final class StartMessageMoveTask {
  private StartMessageMoveTask() {}

  public record Request(String sourceArn, String destinationArn, Integer maxNumberOfMessagesPerSecond) {}

  public record Response(String taskHandle) {}
}
