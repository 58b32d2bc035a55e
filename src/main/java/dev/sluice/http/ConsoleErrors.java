package dev.sluice.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/**
 * The one place the console's own errors are rendered (design/console.md §2.6): the AWS JSON
 * protocol's shape, {@code {"__type", "message"}} with the code's HTTP status, so that the pages
 * read every error, the SQS API's included, the same way. A request refused before its body was
 * read closes its connection once answered ({@link Refusals#closeIfUnread}).
 */
final class ConsoleErrors {
  static final String FORBIDDEN = "Forbidden";
  static final String MISSING_TOKEN = "MissingToken";
  static final String INVALID_TOKEN = "InvalidToken";
  static final String NOT_FOUND = "NotFound";
  static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";
  static final String SERVICE_UNAVAILABLE = "ServiceUnavailable";
  static final String INVALID_PARAMETER_VALUE = "InvalidParameterValue";

  private ConsoleErrors() {}

  static void render(HttpServerRequest req, int status, String type, String message) {
    Refusals.closeIfUnread(req);
    req.response().setStatusCode(status).putHeader("content-type", ConsoleHeaders.JSON)
        .end(new JsonObject().put("__type", type).put("message", message).toBuffer());
  }

  /** A request without the management token, or with a wrong one: 401, with the scheme to use. */
  static void unauthorized(HttpServerRequest req, String type, String message) {
    req.response().putHeader("www-authenticate", "Bearer realm=\"sluice\"");
    render(req, 401, type, message);
  }

  /** While the server recovers its queues: the retryable 503, to be asked again in a second. */
  static void starting(HttpServerRequest req) {
    req.response().putHeader("retry-after", "1");
    render(req, 503, SERVICE_UNAVAILABLE, "Sluice is starting (recovering its queues); retry shortly.");
  }
}
