package dev.sluice.http;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.model.MemoryBudget;
import dev.sluice.protocol.Headers;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

/**
 * Reads a whole request body within its limits, charging every byte held to the server-wide budget
 * of request bytes and to its connection before it is buffered: a declared Content-Length larger
 * than the action allows, or than what is left of either budget, is refused before one byte of the
 * body is read (and a client waiting on {@code Expect: 100-continue} is never told to send it). A
 * chunked body is charged chunk by chunk. The caller gives the bytes back with {@link Read#release}
 * once the body has been decoded. Runs on the request's event loop.
 */
final class BodyReader {
  private final MemoryBudget server;
  private final long perConnectionBytes;

  BodyReader(MemoryBudget server, long perConnectionBytes) {
    this.server = server;
    this.perConnectionBytes = perConnectionBytes;
  }

  /** A body read, and the bytes it holds of the budgets until released. */
  final class Read {
    private final ConnectionGuard.State connection;
    private long charged;
    final Buffer body;

    private Read(ConnectionGuard.State connection, long charged, Buffer body) {
      this.connection = connection;
      this.charged = charged;
      this.body = body;
    }

    /** Gives the body's bytes back to the budgets; idempotent. */
    void release() {
      give(connection, charged);
      charged = 0;
    }
  }

  /**
   * The request's body, or a failure: InvalidParameterValue for a body over {@code maxBytes} (the
   * body is not read), RequestThrottled when the budgets are spent. {@code connection} may be null
   * (a connection already being refused).
   */
  Future<Read> read(HttpServerRequest req, int maxBytes, ConnectionGuard.State connection) {
    String length = req.getHeader(Headers.CONTENT_LENGTH);
    long declared = -1;
    if (length != null) {
      try {
        declared = Long.parseLong(length.trim());
      } catch (NumberFormatException e) {
        return Future.failedFuture(SqsException.invalidParameter("Invalid Content-Length header."));
      }
      if (declared > maxBytes || declared < 0) {
        return Future.failedFuture(tooLarge(maxBytes));
      }
      if (!charge(connection, declared)) {
        return Future.failedFuture(throttled());
      }
      if (declared == 0 && req.isEnded()) {
        return Future.succeededFuture(new Read(connection, 0, Buffer.buffer(0)));
      }
    }
    if ("100-continue".equalsIgnoreCase(req.getHeader("expect"))) {
      req.response().writeContinue();
    }
    if (declared >= 0) {
      // Framed by its length: the body cannot outgrow what was charged.
      long charged = declared;
      return req.body().transform(read -> {
        if (read.failed()) {
          give(connection, charged);
          return Future.failedFuture(read.cause());
        }
        return Future.succeededFuture(new Read(connection, charged, read.result()));
      });
    }
    return readChunked(req, maxBytes, connection);
  }

  /** A body without Content-Length: charged as its chunks arrive. */
  private Future<Read> readChunked(HttpServerRequest req, int maxBytes, ConnectionGuard.State connection) {
    long[] charged = {0};
    Promise<Read> done = Promise.promise();
    Buffer body = Buffer.buffer();
    req.handler(chunk -> {
      if (done.future().isComplete()) {
        return;
      }
      int size = body.length() + chunk.length();
      if (size > maxBytes || !charge(connection, chunk.length())) {
        give(connection, charged[0]);
        charged[0] = 0;
        done.tryFail(size > maxBytes ? tooLarge(maxBytes) : throttled());
        return;
      }
      charged[0] += chunk.length();
      body.appendBuffer(chunk);
    });
    req.endHandler(v -> done.tryComplete(new Read(connection, charged[0], body)));
    req.exceptionHandler(failure -> {
      if (done.tryFail(failure)) {
        give(connection, charged[0]);
        charged[0] = 0;
      }
    });
    return done.future();
  }

  /** Charges both budgets, or neither. */
  private boolean charge(ConnectionGuard.State connection, long bytes) {
    if (bytes <= 0) {
      return true;
    }
    if (connection != null && connection.bodyBytes + bytes > perConnectionBytes) {
      return false;
    }
    if (!server.tryCharge(bytes)) {
      return false;
    }
    if (connection != null) {
      connection.bodyBytes += bytes;
    }
    return true;
  }

  private void give(ConnectionGuard.State connection, long bytes) {
    if (bytes <= 0) {
      return;
    }
    server.release(bytes);
    if (connection != null) {
      connection.bodyBytes -= bytes;
    }
  }

  static SqsException tooLarge(int maxBytes) {
    return SqsException.invalidParameter("The request body is larger than the " + maxBytes
        + " bytes this server accepts for this action.");
  }

  private static SqsException throttled() {
    return new SqsException(ErrorCode.REQUEST_THROTTLED,
        "Too many request bytes are being received at once; retry shortly.");
  }
}
