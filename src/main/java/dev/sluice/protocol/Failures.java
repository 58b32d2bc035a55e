package dev.sluice.protocol;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.engine.CallerGone;

/** What a failed request is answered with, on either wire protocol. Stateless. */
public final class Failures {
  private static final System.Logger LOG = System.getLogger(Failures.class.getName());

  private Failures() {}

  /** The SQS error a failure is answered with, without logging it. */
  public static ErrorCode codeOf(Throwable failure) {
    return failure instanceof SqsException e ? e.code() : ErrorCode.INTERNAL_FAILURE;
  }

  /**
   * Unexpected failures are bugs: logged with their stack trace, answered as InternalFailure. A
   * client that hung up is no bug of ours: logged at DEBUG (see {@link #clientGone}).
   */
  public static SqsException asSqs(Throwable failure) {
    if (failure instanceof SqsException e) {
      return e;
    }
    if (isClientGone(failure)) {
      clientGone(failure);
    } else {
      LOG.log(System.Logger.Level.ERROR, "Internal failure while serving a request", failure);
    }
    return new SqsException(ErrorCode.INTERNAL_FAILURE, "We encountered an internal error. Please try again.");
  }

  /** True when {@code failure} only says that the client's connection closed ({@link CallerGone#isConnectionClosed}). */
  public static boolean isClientGone(Throwable failure) {
    return CallerGone.isConnectionClosed(failure);
  }

  /** Logs a request its client abandoned: at DEBUG, without a stack trace (a client's choice, not our fault). */
  public static void clientGone(Throwable failure) {
    LOG.log(System.Logger.Level.DEBUG, () -> "The client closed its connection before its request was answered: "
        + failure);
  }
}
