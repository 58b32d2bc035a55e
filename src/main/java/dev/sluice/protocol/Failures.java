package dev.sluice.protocol;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;

/** What a failed request is answered with, on either wire protocol. Stateless. */
public final class Failures {
  private static final System.Logger LOG = System.getLogger(Failures.class.getName());

  private Failures() {}

  /** The SQS error a failure is answered with, without logging it. */
  public static ErrorCode codeOf(Throwable failure) {
    return failure instanceof SqsException e ? e.code() : ErrorCode.INTERNAL_FAILURE;
  }

  /** Unexpected failures are bugs: logged with their stack trace, answered as InternalFailure. */
  public static SqsException asSqs(Throwable failure) {
    if (failure instanceof SqsException e) {
      return e;
    }
    LOG.log(System.Logger.Level.ERROR, "Internal failure while serving a request", failure);
    return new SqsException(ErrorCode.INTERNAL_FAILURE, "We encountered an internal error. Please try again.");
  }
}
