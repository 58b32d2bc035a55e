package dev.sluice.api.topics;

/**
 * An expected outcome of an SNS request answered as an SNS error. No stack trace: these are values,
 * thrown on every validation failure, never a sign of a bug.
 */
public final class SnsException extends RuntimeException {
  private final SnsErrorCode code;

  public SnsException(SnsErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public SnsErrorCode code() {
    return code;
  }

  /** AWS's "Invalid parameter: {@code what}" family (InvalidParameter, 400). */
  public static SnsException invalidParameter(String what) {
    return new SnsException(SnsErrorCode.INVALID_PARAMETER, "Invalid parameter: " + what);
  }

  /** AWS's "Invalid parameter: {@code member} Reason: {@code reason}" wording. */
  public static SnsException invalidParameter(String member, String reason) {
    return invalidParameter(member + " Reason: " + reason);
  }

  /** A required member missing: the Smithy model's validation message, as SNS answers it. */
  public static SnsException missing(String member) {
    return new SnsException(SnsErrorCode.VALIDATION_ERROR,
        "1 validation error detected: Value null at '" + member + "' failed to satisfy constraint: Member must not"
            + " be null");
  }

  public static SnsException topicNotFound() {
    return new SnsException(SnsErrorCode.NOT_FOUND, "Topic does not exist");
  }
}
