package dev.sluice.http;

import dev.sluice.api.Caller;
import dev.sluice.model.Ids;
import dev.sluice.protocol.Headers;
import io.vertx.core.http.HttpServerRequest;

/** Derives who is calling, and which base URL to hand them, from an HTTP request. Stateless. */
final class Callers {
  private final String publicBaseUrl;
  private final String defaultSenderId;

  Callers(String publicBaseUrl, String defaultSenderId) {
    this.publicBaseUrl = publicBaseUrl;
    this.defaultSenderId = defaultSenderId;
  }

  Caller of(HttpServerRequest req) {
    return new HttpCaller(req);
  }

  /** Reads each header only when an action asks for it: most actions need none of them. */
  private final class HttpCaller implements Caller {
    private final HttpServerRequest req;
    private String requestId;

    HttpCaller(HttpServerRequest req) {
      this.req = req;
    }

    @Override
    public String requestId() {
      if (requestId == null) {
        requestId = Ids.uuid();
      }
      return requestId;
    }

    /** The configured public base URL, else the URL the client used to reach us (its Host header). */
    @Override
    public String baseUrl() {
      if (!publicBaseUrl.isEmpty()) {
        return publicBaseUrl;
      }
      String host = req.getHeader(Headers.HOST);
      if (host == null || host.isEmpty()) {
        host = req.localAddress().hostAddress() + ":" + req.localAddress().port();
      }
      return (req.isSSL() ? "https://" : "http://") + host;
    }

    /** The access key id of a SigV4 Authorization header ("Credential=AKID/date/..."). */
    @Override
    public String senderId() {
      String authorization = req.getHeader(Headers.AUTHORIZATION);
      if (authorization != null) {
        int i = authorization.indexOf("Credential=");
        if (i >= 0) {
          int start = i + "Credential=".length();
          int end = authorization.indexOf('/', start);
          if (end > start) {
            return authorization.substring(start, end);
          }
        }
      }
      return defaultSenderId;
    }

    @Override
    public String traceHeader() {
      return req.getHeader(Headers.X_AMZN_TRACE_ID);
    }
  }
}
