package dev.sluice.outbox;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which refusals are the row's fault for good (its row goes to the dead-row table) and which pass
 * (the row stays for a later round). The sender-fault flag decides, but for the 4xx errors that
 * say "later": throttling, a purge under way, a bound reached. Anything that is not an SQS error
 * (a timeout, a lost node) passes too. Pure.
 */
final class SendFailures {
  /** Sender-fault codes that still pass with time. */
  private static final Set<ErrorCode> PASSING = EnumSet.of(ErrorCode.REQUEST_THROTTLED,
      ErrorCode.PURGE_QUEUE_IN_PROGRESS, ErrorCode.OVER_LIMIT, ErrorCode.QUEUE_DELETED_RECENTLY);
  /** The same, by the codes a result names (query code and shape name alike). */
  private static final Set<String> PASSING_CODES = PASSING.stream()
      .flatMap(c -> java.util.stream.Stream.of(c.queryCode(), c.shapeName())).collect(Collectors.toUnmodifiableSet());

  private SendFailures() {}

  /** Whether a failed engine call refused its rows for good. */
  static boolean refusedForGood(Throwable failure) {
    return failure instanceof SqsException e && e.code().senderFault() && !PASSING.contains(e.code());
  }

  /** Whether a refused entry ({@code errorCode}, {@code senderFault}) is refused for good. */
  static boolean refusedForGood(String errorCode, boolean senderFault) {
    return senderFault && !PASSING_CODES.contains(errorCode);
  }

  /** The dead row of {@code rowId} refused by the whole call's {@code failure}. */
  static DeadRow dead(long rowId, SqsException failure) {
    return new DeadRow(rowId, failure.code().queryCode(), failure.getMessage());
  }
}
