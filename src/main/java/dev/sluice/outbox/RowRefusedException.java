package dev.sluice.outbox;

import dev.sluice.api.ErrorCode;

/**
 * A row the relay refuses before sending it (its message attributes or its queue name cannot be
 * read): the row goes to the dead-row table with this reason, and the relay goes on. No stack trace.
 */
final class RowRefusedException extends Exception {
  private final ErrorCode code;

  RowRefusedException(ErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  DeadRow dead(long rowId) {
    return new DeadRow(rowId, code.queryCode(), getMessage());
  }
}
