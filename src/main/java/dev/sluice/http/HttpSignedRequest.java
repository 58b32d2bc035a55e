package dev.sluice.http;

import dev.sluice.auth.SignedRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;

/** An HTTP request and its body as SigV4 sees them. */
final class HttpSignedRequest implements SignedRequest {
  private final HttpServerRequest req;
  private final Buffer body;

  HttpSignedRequest(HttpServerRequest req, Buffer body) {
    this.req = req;
    this.body = body;
  }

  @Override
  public String method() {
    return req.method().name();
  }

  @Override
  public String rawPath() {
    return req.path();
  }

  @Override
  public String rawQuery() {
    return req.query();
  }

  @Override
  public List<String> headers(String lowerCaseName) {
    List<String> values = req.headers().getAll(lowerCaseName);
    if (values.isEmpty() && lowerCaseName.equals("host") && req.authority() != null) {
      // HTTP/2 (also after an h2c upgrade) carries the host as :authority, not as a header.
      return List.of(req.authority().toString());
    }
    return values;
  }

  @Override
  public byte[] body() {
    return body == null ? new byte[0] : body.getBytes();
  }
}
