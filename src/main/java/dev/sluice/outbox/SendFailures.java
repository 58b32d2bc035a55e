package dev.sluice.outbox;

import dev.sluice.api.SqsException;
import dev.sluice.api.topics.SnsException;
import dev.sluice.engine.RelayActions;

/**
 * Which failed engine calls refused their rows for good (the rows go to the dead-row table) and
 * which pass (the rows stay for a later round): the engine's own rule for a refused entry
 * ({@link RelayActions#rowAtFault}), applied to a call refused whole (no such queue or topic, access
 * denied). Anything that is not an SQS or SNS error (a timeout, a lost node) passes. Pure.
 */
final class SendFailures {
  private SendFailures() {}

  /** Whether a failed engine call refused its rows for good. */
  static boolean refusedForGood(Throwable failure) {
    return RelayActions.rowAtFault(failure);
  }

  /** The SQS or SNS error code of {@code failure}, or null when it is neither's error. */
  static String errorCode(Throwable failure) {
    if (failure instanceof SqsException e) {
      return e.code().queryCode();
    }
    return failure instanceof SnsException e ? e.code().code() : null;
  }

  /** The dead row of {@code rowId} refused by the whole call's {@code failure}, one {@link #refusedForGood} said so of. */
  static DeadRow dead(long rowId, Throwable failure) {
    return new DeadRow(rowId, errorCode(failure), failure.getMessage());
  }
}
