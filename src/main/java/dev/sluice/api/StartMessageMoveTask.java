package dev.sluice.api;

/** StartMessageMoveTask (its page in the AWS API reference). */
public final class StartMessageMoveTask {
  private StartMessageMoveTask() {}

  public record Request(String sourceArn, String destinationArn, Integer maxNumberOfMessagesPerSecond) {}

  public record Response(String taskHandle) {}
}
