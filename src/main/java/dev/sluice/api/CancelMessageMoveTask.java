package dev.sluice.api;

/** CancelMessageMoveTask (its page in the AWS API reference). */
public final class CancelMessageMoveTask {
  private CancelMessageMoveTask() {}

  public record Request(String taskHandle) {}

  public record Response(long approximateNumberOfMessagesMoved) {}
}
