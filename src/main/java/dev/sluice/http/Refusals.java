package dev.sluice.http;

import io.vertx.core.http.HttpServerRequest;

/** The answers to a request refused before its body was read, on surfaces other than the SQS APIs. */
final class Refusals {
  private Refusals() {}

  /** A management request without the management token: 401, with the scheme to use. */
  static void unauthorized(HttpServerRequest req) {
    closeIfUnread(req);
    req.response().setStatusCode(401).putHeader("www-authenticate", "Bearer realm=\"sluice\"")
        .putHeader("content-type", "text/plain").end("a bearer token (managementToken) is required\n");
  }

  /** A bridge URL presigned with a signature that does not check out: 403, with SigV4's reason. */
  static void signatureRefused(HttpServerRequest req, String reason) {
    closeIfUnread(req);
    req.response().setStatusCode(403).putHeader("content-type", "text/plain").end(reason + "\n");
  }

  /** A presigned bridge request over a SockJS transport other than WebSocket: 403. */
  static void transportRefused(HttpServerRequest req) {
    closeIfUnread(req);
    req.response().setStatusCode(403).putHeader("content-type", "text/plain")
        .end("a bridge URL presigned by a credential opens a WebSocket only (SockJS transports: ['websocket'])\n");
  }

  /** A browser page of a site push.allowedOrigins does not name: 403. */
  static void originNotAllowed(HttpServerRequest req) {
    closeIfUnread(req);
    req.response().setStatusCode(403).putHeader("content-type", "text/plain")
        .end("this Origin may not use the bridge (push.allowedOrigins)\n");
  }

  /**
   * When the request's body has not all arrived, its connection closes once the answer is written,
   * so that the body is never read (it may be huge or never come).
   */
  static void closeIfUnread(HttpServerRequest req) {
    if (!req.isEnded()) {
      req.response().putHeader("connection", "close").endHandler(v -> req.connection().close());
    }
  }
}
