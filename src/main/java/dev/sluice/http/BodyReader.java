package dev.sluice.http;

import dev.sluice.protocol.Headers;
import dev.sluice.api.SqsException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

/** Reads a whole request body, refusing (before buffering it) one larger than the limit. */
final class BodyReader {
  private BodyReader() {}

  static Future<Buffer> read(HttpServerRequest req, int maxBytes) {
    String length = req.getHeader(Headers.CONTENT_LENGTH);
    if (length != null) {
      long declared;
      try {
        declared = Long.parseLong(length.trim());
      } catch (NumberFormatException e) {
        return Future.failedFuture(SqsException.invalidParameter("Invalid Content-Length header."));
      }
      if (declared > maxBytes) {
        return Future.failedFuture(tooLarge(maxBytes));
      }
      return req.body();
    }
    Promise<Buffer> p = Promise.promise();
    Buffer body = Buffer.buffer();
    req.handler(chunk -> {
      if (body.length() + chunk.length() > maxBytes) {
        p.tryFail(tooLarge(maxBytes));
        req.connection().close();
      } else {
        body.appendBuffer(chunk);
      }
    });
    req.endHandler(v -> p.tryComplete(body));
    req.exceptionHandler(p::tryFail);
    return p.future();
  }

  private static SqsException tooLarge(int maxBytes) {
    return SqsException.invalidParameter("The request body is larger than the " + maxBytes + " bytes this server accepts.");
  }
}
