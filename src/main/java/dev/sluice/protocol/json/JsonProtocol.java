package dev.sluice.protocol.json;

import dev.sluice.protocol.Headers;
import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.RequestMetrics;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.HashMap;
import java.util.Map;

/**
 * The AWS JSON 1.0 protocol (sqs-reference §1.2): {@code X-Amz-Target: AmazonSQS.<Action>}, a JSON
 * body in, a JSON body out. Stateless; one instance serves every event loop.
 */
public final class JsonProtocol {
  private static final String TARGET_PREFIX = "AmazonSQS.";
  private static final Map<String, JsonAction> ACTIONS = new HashMap<>();

  static {
    QueueJsonActions.register(ACTIONS);
    MessageJsonActions.register(ACTIONS);
    RedriveJsonActions.register(ACTIONS);
  }

  /** The action tag of requests that name no action this protocol knows. */
  public static final String UNKNOWN_ACTION = "Unknown";

  private final QueueEngine engine;
  private final RequestMetrics metrics;

  public JsonProtocol(QueueEngine engine, RequestMetrics metrics) {
    this.engine = engine;
    this.metrics = metrics;
  }

  /** True for requests this protocol owns: an SQS X-Amz-Target, or the JSON 1.0 content type without one. */
  public static boolean accepts(String target, HttpServerRequest req) {
    if (target != null) {
      return target.startsWith(TARGET_PREFIX);
    }
    String type = req.getHeader(Headers.CONTENT_TYPE);
    return type != null && type.startsWith(Headers.AMZ_JSON_1_0);
  }

  /** {@code startNanos}: when the request arrived, for the request timer. */
  public void handle(HttpServerRequest req, String target, Buffer body, Caller caller, CallerGone gone,
      long startNanos) {
    HttpServerResponse response = req.response();
    response.putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId());
    Future<JsonWriter> answer;
    try {
      answer = action(target).invoke(engine, caller, new JsonReader(parse(body)), gone);
    } catch (RuntimeException e) {
      answer = Future.failedFuture(e);
    }
    answer.onComplete((result, failure) -> {
      metrics.record(actionName(target), failure == null ? null : JsonErrors.codeOf(failure), startNanos);
      if (response.ended() || response.closed()) {
        return;
      }
      if (failure == null) {
        response.putHeader(Headers.CONTENT_TYPE, Headers.AMZ_JSON_1_0_VALUE).end(result.toBuffer());
      } else {
        JsonErrors.render(response, failure);
      }
    });
  }

  /** Whether {@code action} is an SQS action this server implements (both protocols share them). */
  public static boolean knows(String action) {
    return action != null && ACTIONS.containsKey(action);
  }

  /**
   * Runs {@code action} on members already decoded into the JSON protocol's shape (the Query
   * protocol's way in: same decoder, same engine call) and answers the result's member tree.
   */
  public Future<Map<String, Object>> invoke(String action, Map<String, Object> members, Caller caller,
      CallerGone gone) {
    Future<JsonWriter> answer;
    try {
      answer = ACTIONS.get(action).invoke(engine, caller, new JsonReader(members), gone);
    } catch (RuntimeException e) {
      answer = Future.failedFuture(e);
    }
    return answer.map(w -> parse(w.toBuffer()));
  }

  /** Renders a request that failed before it reached its action, and counts it. */
  public void fail(HttpServerResponse response, String target, Throwable failure, long startNanos) {
    metrics.record(actionName(target), JsonErrors.codeOf(failure), startNanos);
    JsonErrors.render(response, failure);
  }

  /** The action a target names, or {@link #UNKNOWN_ACTION}: tag values stay a closed set. */
  static String actionName(String target) {
    String name = target != null && target.startsWith(TARGET_PREFIX) ? target.substring(TARGET_PREFIX.length()) : null;
    return name != null && ACTIONS.containsKey(name) ? name : UNKNOWN_ACTION;
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

  private static Map<String, Object> parse(Buffer body) {
    if (body.length() == 0) {
      return Map.of();
    }
    Object v;
    try {
      byte[] bytes = body.getBytes();
      v = JsonParser.parse(bytes, 0, bytes.length);
    } catch (IllegalArgumentException e) {
      throw new SqsException(ErrorCode.SERIALIZATION_EXCEPTION, "The request body is not valid JSON: " + e.getMessage());
    }
    if (!(v instanceof Map<?, ?>)) {
      throw new SqsException(ErrorCode.SERIALIZATION_EXCEPTION, "The request body must be a JSON object.");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) v;
    return m;
  }
}
