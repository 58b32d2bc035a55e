package dev.sluice.protocol.json;

import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;

/**
 * The AWS JSON 1.0 protocol (sqs-reference §1.2): {@code X-Amz-Target: AmazonSQS.<Action>}, a JSON
 * body in, a JSON body out. Stateless; one instance serves every event loop.
 */
public final class JsonProtocol {
  public static final String CONTENT_TYPE = "application/x-amz-json-1.0";
  private static final String TARGET_PREFIX = "AmazonSQS.";
  private static final Map<String, JsonAction> ACTIONS = new HashMap<>();

  static {
    QueueJsonActions.register(ACTIONS);
    MessageJsonActions.register(ACTIONS);
  }

  private final QueueEngine engine;

  public JsonProtocol(QueueEngine engine) {
    this.engine = engine;
  }

  /** True for requests this protocol owns: an SQS X-Amz-Target or the JSON 1.0 content type. */
  public static boolean accepts(HttpServerRequest req) {
    String target = req.getHeader("X-Amz-Target");
    String type = req.getHeader("Content-Type");
    return (target != null && target.startsWith(TARGET_PREFIX)) || (type != null && type.startsWith(CONTENT_TYPE));
  }

  public void handle(HttpServerRequest req, Buffer body, Caller caller, CallerGone gone) {
    HttpServerResponse response = req.response();
    response.putHeader("x-amzn-RequestId", caller.requestId());
    Future<JsonObject> answer;
    try {
      answer = action(req.getHeader("X-Amz-Target")).invoke(engine, caller, new JsonReader(parse(body)), gone);
    } catch (RuntimeException e) {
      answer = Future.failedFuture(e);
    }
    answer.onComplete((result, failure) -> {
      if (response.ended() || response.closed()) {
        return;
      }
      if (failure == null) {
        response.putHeader("Content-Type", CONTENT_TYPE).end(result.toBuffer());
      } else {
        JsonErrors.render(response, failure);
      }
    });
  }

  private static JsonAction action(String target) {
    String name = target != null && target.startsWith(TARGET_PREFIX) ? target.substring(TARGET_PREFIX.length()) : null;
    JsonAction a = name == null ? null : ACTIONS.get(name);
    if (a == null) {
      throw new SqsException(
          ErrorCode.UNSUPPORTED_OPERATION,
          name == null
              ? "The X-Amz-Target header must name an SQS action (AmazonSQS.<Action>)."
              : "The action " + name + " is not valid for this endpoint.");
    }
    return a;
  }

  private static JsonObject parse(Buffer body) {
    if (body.length() == 0) {
      return new JsonObject();
    }
    Object v;
    try {
      v = Json.decodeValue(body);
    } catch (DecodeException e) {
      throw new SqsException(ErrorCode.SERIALIZATION_EXCEPTION, "The request body is not valid JSON.");
    }
    if (!(v instanceof JsonObject o)) {
      throw new SqsException(ErrorCode.SERIALIZATION_EXCEPTION, "The request body must be a JSON object.");
    }
    return o;
  }
}
