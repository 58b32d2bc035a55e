package dev.sluice.loadtest;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/** A call the server answered with an error: its HTTP status and the JSON {@code __type}. */
final class SqsError extends RuntimeException {
  private final int status;
  private final String type;

  SqsError(String action, int status, Buffer body) {
    super(action + " failed: " + status + " " + body, null, false, false);
    this.status = status;
    this.type = typeOf(body);
  }

  /** Refused for load (RequestThrottled, 429): nothing was done, so retrying cannot duplicate. */
  boolean throttled() {
    return status == 429 || type.endsWith("RequestThrottled") || type.endsWith("ThrottlingException");
  }

  /**
   * ServiceUnavailable (503): the server is starting, stopping, or could not store the request in
   * time. In the last case the request may still take effect, so a retried send may be stored twice.
   */
  boolean unavailable() {
    return status == 503;
  }

  private static String typeOf(Buffer body) {
    try {
      String type = body.length() == 0 ? null : body.toJsonObject().getString("__type");
      return type == null ? "" : type;
    } catch (RuntimeException notJson) {
      return "";
    }
  }
}
