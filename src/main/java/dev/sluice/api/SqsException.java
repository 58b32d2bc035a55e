package dev.sluice.api;

/**
 * An expected outcome answered to the client as an SQS error. No stack trace: these are values,
 * thrown often (every validation failure) and never a sign of a bug.
 */
public final class SqsException extends RuntimeException {
  private final ErrorCode code;

  public SqsException(ErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }

  public static SqsException invalidParameter(String message) {
    return new SqsException(ErrorCode.INVALID_PARAMETER_VALUE, message);
  }

  /** The "Value v for parameter P is invalid. Reason: r" family of the SQS API reference. */
  public static SqsException invalidValue(Object value, String parameter, String reason) {
    return invalidParameter(
        "Value " + value + " for parameter " + parameter + " is invalid. Reason: " + reason);
  }

  public static SqsException missingParameter(String parameter) {
    return new SqsException(
        ErrorCode.MISSING_PARAMETER, "The request must contain the parameter " + parameter + ".");
  }

  public static SqsException queueDoesNotExist() {
    return new SqsException(ErrorCode.QUEUE_DOES_NOT_EXIST, "The specified queue does not exist.");
  }
}
