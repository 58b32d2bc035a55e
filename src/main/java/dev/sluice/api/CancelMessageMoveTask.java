package dev.sluice.api;

/** CancelMessageMoveTask (sqs-reference §7.3). */
public final class CancelMessageMoveTask {
  private CancelMessageMoveTask() {}

  public record Request(String taskHandle) {}

  public record Response(long approximateNumberOfMessagesMoved) {}
}
