package dev.sluice.api.triggers;

/** A refusal of the triggers' admin API, with Lambda's code and text. No stack trace: it is an answer. */
public final class LambdaException extends RuntimeException {
  private final LambdaErrorCode code;

  public LambdaException(LambdaErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public LambdaErrorCode code() {
    return code;
  }

  /**
   * A bound of the request's shape, in the words of AWS's request validation: "1 validation error
   * detected: Value 'v' at 'member' failed to satisfy constraint: …".
   */
  public static LambdaException validation(Object value, String member, String constraint) {
    return new LambdaException(LambdaErrorCode.VALIDATION, "1 validation error detected: Value '" + value + "' at '"
        + member + "' failed to satisfy constraint: " + constraint);
  }

  public static LambdaException invalidValue(String message) {
    return new LambdaException(LambdaErrorCode.INVALID_PARAMETER_VALUE, message);
  }
}
