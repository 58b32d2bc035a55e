package dev.sluice.api;

/**
 * An expected outcome answered to the client as an SQS error. No stack trace: these are values,
 * thrown often (every validation failure) and never a sign of a bug.
 */
public final class SqsException extends RuntimeException {
  private final ErrorCode code;
  private final String queryMessage;

  public SqsException(ErrorCode code, String message) {
    this(code, message, null);
  }

  /**
   * An error SQS words differently on the Query protocol ({@code queryMessage}) than on the AWS
   * JSON protocol ({@code message}), such as AccessDenied; each protocol's renderer picks its own.
   */
  public SqsException(ErrorCode code, String message, String queryMessage) {
    super(message, null, false, false);
    this.code = code;
    this.queryMessage = queryMessage;
  }

  public ErrorCode code() {
    return code;
  }

  /** The Query protocol's wording of this error; null when it is {@link #getMessage()}. */
  public String queryMessage() {
    return queryMessage;
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
