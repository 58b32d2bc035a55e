package dev.sluice.http;

import dev.sluice.api.Caller;
import dev.sluice.auth.Identity;
import dev.sluice.model.Ids;
import dev.sluice.protocol.Headers;
import io.vertx.core.http.HttpServerRequest;

/**
 * Makes the caller of an HTTP request: who it acts as (settled by the authenticator before the
 * request reaches the engine) and which base URL to hand it. Stateless.
 */
final class Callers {
  private final String publicBaseUrl;

  Callers(String publicBaseUrl) {
    this.publicBaseUrl = publicBaseUrl;
  }

  Caller of(HttpServerRequest req, Identity identity) {
    return new HttpCaller(req, identity, false, false);
  }

  /**
   * The caller of a management route, let in by the management token ({@link Caller#operator}):
   * it acts as {@code identity}, the default account (sqs.accountId) in the default region.
   */
  Caller ofOperator(HttpServerRequest req, Identity identity) {
    return new HttpCaller(req, identity, false, true);
  }

  /** The caller of an unsigned SNS link let in while authentication is on ({@link Caller#unsignedLink}). */
  Caller ofLink(HttpServerRequest req, Identity identity) {
    return new HttpCaller(req, identity, true, false);
  }

  /** Reads each header only when an action asks for it: most actions need none of them. */
  private final class HttpCaller implements Caller {
    private final HttpServerRequest req;
    private final Identity identity;
    private final boolean link;
    private final boolean operator;
    private String requestId;

    HttpCaller(HttpServerRequest req, Identity identity, boolean link, boolean operator) {
      this.req = req;
      this.identity = identity;
      this.link = link;
      this.operator = operator;
    }

    @Override
    public boolean unsignedLink() {
      return link;
    }

    @Override
    public boolean operator() {
      return operator;
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

    /** The signing access key id; the account id for an unsigned request. */
    @Override
    public String senderId() {
      return identity.accessKeyId() != null ? identity.accessKeyId() : identity.accountId();
    }

    @Override
    public String traceHeader() {
      return req.getHeader(Headers.X_AMZN_TRACE_ID);
    }

    @Override
    public String accountId() {
      return identity.accountId();
    }

    @Override
    public String region() {
      return identity.region();
    }

    @Override
    public String accessKeyId() {
      return identity.accessKeyId();
    }
  }
}
