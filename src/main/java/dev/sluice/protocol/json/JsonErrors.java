package dev.sluice.protocol.json;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.protocol.Failures;
import dev.sluice.protocol.Headers;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * The one place errors are rendered on the AWS JSON 1.0 protocol (the AWS JSON protocol guide): status from
 * the error table, {@code __type} and {@code message} in the body, and the legacy Query code in
 * {@code x-amzn-query-error}, which boto3, the AWS CLI and the Java SDK read as the error code.
 */
public final class JsonErrors {
  private JsonErrors() {}

  public static void render(HttpServerResponse response, Throwable failure) {
    SqsException e = Failures.asSqs(failure);
    ErrorCode code = e.code();
    Buffer body = new JsonObject().put("__type", code.jsonType()).put("message", e.getMessage()).toBuffer();
    response
        .setStatusCode(code.httpStatus())
        .putHeader(Headers.X_AMZN_QUERY_ERROR, code.queryCode() + (code.senderFault() ? ";Sender" : ";Receiver"))
        .putHeader(Headers.CONTENT_TYPE, Headers.AMZ_JSON_1_0_VALUE)
        .end(body);
  }
}
