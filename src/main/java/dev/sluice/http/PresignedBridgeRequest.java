package dev.sluice.http;

import dev.sluice.auth.SignedRequest;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * A request to the SockJS bridge as the presigned URL it carries: {@code GET <push.path>} with the
 * {@code X-Amz-*} query parameters a client's SigV4 presigner added (AWS SDK presigners, or
 * botocore's {@code SigV4QueryAuth}). SockJS appends its own path segments and parameters to the
 * URL it was given (server and session ids, {@code t=} cache busters), so those are left out: what
 * is checked is exactly what the client signed.
 */
final class PresignedBridgeRequest implements SignedRequest {
  private final HttpServerRequest req;
  private final String bridgePath;
  private final String signedQuery;

  private PresignedBridgeRequest(HttpServerRequest req, String bridgePath, String signedQuery) {
    this.req = req;
    this.bridgePath = bridgePath;
    this.signedQuery = signedQuery;
  }

  /** The presigned request {@code req} carries, or null when its query holds no SigV4 credential. */
  static PresignedBridgeRequest of(HttpServerRequest req, String bridgePath) {
    String query = req.query();
    if (query == null || !query.contains("X-Amz-Credential=")) {
      return null;
    }
    List<String> signed = new ArrayList<>();
    for (String parameter : query.split("&")) {
      if (parameter.startsWith("X-Amz-")) {
        signed.add(parameter);
      }
    }
    return new PresignedBridgeRequest(req, bridgePath, String.join("&", signed));
  }

  @Override
  public String method() {
    return "GET";
  }

  @Override
  public String rawPath() {
    return bridgePath;
  }

  @Override
  public String rawQuery() {
    return signedQuery;
  }

  @Override
  public List<String> headers(String lowerCaseName) {
    return req.headers().getAll(lowerCaseName);
  }

  @Override
  public byte[] body() {
    return new byte[0];
  }
}
