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
    return req.headers().getAll(lowerCaseName);
  }

  @Override
  public byte[] body() {
    return body == null ? new byte[0] : body.getBytes();
  }
}
