package dev.sluice.api.triggers;

/**
 * The errors of the triggers' admin API, as Lambda's REST API names them (AWS Lambda API reference:
 * CreateEventSourceMapping, Errors): the code, the HTTP status, and whether Lambda marks it
 * {@code "Type": "User"} (a ValidationException has no type, as AWS answers it).
 */
public enum LambdaErrorCode {
  VALIDATION("ValidationException", 400, false),
  INVALID_PARAMETER_VALUE("InvalidParameterValueException", 400, true),
  RESOURCE_CONFLICT("ResourceConflictException", 409, true),
  RESOURCE_NOT_FOUND("ResourceNotFoundException", 404, true),
  REQUEST_TOO_LARGE("RequestTooLargeException", 413, true),
  SERVICE("ServiceException", 500, false);

  private final String code;
  private final int httpStatus;
  private final boolean user;

  LambdaErrorCode(String code, int httpStatus, boolean user) {
    this.code = code;
    this.httpStatus = httpStatus;
    this.user = user;
  }

  public String code() {
    return code;
  }

  public int httpStatus() {
    return httpStatus;
  }

  /** Whether the error's body says {@code "Type": "User"}. */
  public boolean user() {
    return user;
  }
}
