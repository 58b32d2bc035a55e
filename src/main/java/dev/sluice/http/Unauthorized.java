package dev.sluice.http;

import io.vertx.core.http.HttpServerResponse;

/** The answer to a management request without the management token: 401, with the scheme to use. */
final class Unauthorized {
  private Unauthorized() {}

  static void answer(HttpServerResponse response) {
    response.setStatusCode(401).putHeader("www-authenticate", "Bearer realm=\"sluice\"")
        .putHeader("content-type", "text/plain").end("a bearer token (managementToken) is required\n");
  }
}
