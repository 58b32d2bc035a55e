package dev.sluice.outbox;

import dev.sluice.api.SqsException;
import dev.sluice.engine.RelayActions;

/**
 * Which failed engine calls refused their rows for good (the rows go to the dead-row table) and
 * which pass (the rows stay for a later round): the engine's own rule for a refused entry
 * ({@link RelayActions#rowAtFault}), applied to a call refused whole (no such queue, access denied).
 * Anything that is not an SQS error (a timeout, a lost node) passes. Pure.
 */
final class SendFailures {
  private SendFailures() {}

  /** Whether a failed engine call refused its rows for good. */
  static boolean refusedForGood(Throwable failure) {
    return RelayActions.rowAtFault(failure);
  }

  /** The dead row of {@code rowId} refused by the whole call's {@code failure}. */
  static DeadRow dead(long rowId, SqsException failure) {
    return new DeadRow(rowId, failure.code().queryCode(), failure.getMessage());
  }
}
