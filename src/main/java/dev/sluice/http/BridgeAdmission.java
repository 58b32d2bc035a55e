package dev.sluice.http;

import dev.sluice.api.SqsException;
import dev.sluice.auth.Authenticator;
import dev.sluice.auth.ManagementToken;
import dev.sluice.auth.OriginPolicy;
import dev.sluice.push.PushBridges;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The first handler of the SockJS bridge's route: who may open it, and as whom. A browser page
 * must come from an allowed Origin. Then either, with credentials configured, the URL is presigned
 * with SigV4 by one of them ({@link PresignedBridgeRequest}) and opens a WebSocket, and the
 * connection acts as that credential: its subscriptions receive only what its permissions and the
 * queues' policies let it receive; or the
 * request carries the management token, and the connection acts as the default account. The
 * identity is left on the routing context for the bridge (see {@link PushBridges#IDENTITY}).
 * Mounted on the route itself, so it guards exactly what the router sends there, whatever the raw
 * path looked like.
 */
final class BridgeAdmission implements Handler<RoutingContext> {
  private final ManagementToken token;
  private final OriginPolicy origins;
  private final Authenticator credentials;
  private final String bridgePath;

  BridgeAdmission(ManagementToken token, OriginPolicy origins, Authenticator credentials, String bridgePath) {
    this.token = token;
    this.origins = origins;
    this.credentials = credentials;
    this.bridgePath = bridgePath;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    if (!origins.allows(req.getHeader("origin"), req.getHeader("host"), req.isSSL())) {
      Refusals.originNotAllowed(req);
      return;
    }
    // Without credentials there is nothing to check a presigned URL against: the token decides.
    PresignedBridgeRequest presigned = credentials.on() ? PresignedBridgeRequest.of(req, bridgePath) : null;
    if (presigned != null) {
      if (!overWebSocket(req.path())) {
        // SockJS's other transports carry one session over many requests, each admitted on its
        // own: a request presigned by one credential could then post into a session opened by
        // another. A WebSocket is one request, one connection, one identity.
        Refusals.transportRefused(req);
        return;
      }
      try {
        Authenticator.Admission admission = credentials.admit(presigned);
        admission.signature().verify(presigned);
        ctx.put(PushBridges.IDENTITY, admission.identity());
        ctx.next();
      } catch (SqsException refused) {
        Refusals.signatureRefused(req, refused.getMessage());
      }
    } else if (token.accepts(req.getHeader("authorization"), req.getParam("token"))) {
      ctx.put(PushBridges.IDENTITY, credentials.unadmitted());
      ctx.next();
    } else {
      Refusals.unauthorized(req);
    }
  }

  /** SockJS's info request (which the client makes first) or a WebSocket, raw or SockJS-framed. */
  private boolean overWebSocket(String path) {
    String rest = path.length() > bridgePath.length() ? path.substring(bridgePath.length()) : "";
    return rest.equals("/info") || rest.endsWith("/websocket");
  }
}
