package dev.sluice.outbox;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.topics.SnsErrorCode;

/**
 * A row the relay refuses before sending it (its message attributes or its destination cannot be
 * read): the row goes to the dead-row table with this reason, and the relay goes on. The code is
 * the one SQS or SNS would answer for the same fault. No stack trace.
 */
final class RowRefusedException extends Exception {
  private final String code;

  RowRefusedException(ErrorCode code, String message) {
    this(code.queryCode(), message);
  }

  RowRefusedException(SnsErrorCode code, String message) {
    this(code.code(), message);
  }

  private RowRefusedException(String code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  DeadRow dead(long rowId) {
    return new DeadRow(rowId, code, getMessage());
  }
}
