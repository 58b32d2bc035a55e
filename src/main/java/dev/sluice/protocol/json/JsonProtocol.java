package dev.sluice.protocol.json;

import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.RequestMetrics;
import dev.sluice.protocol.Failures;
import dev.sluice.protocol.Headers;
import dev.sluice.protocol.SqsAction;
import dev.sluice.protocol.SqsActions;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * The AWS JSON 1.0 protocol (the AWS JSON protocol guide): {@code X-Amz-Target: AmazonSQS.<Action>}, a JSON
 * body in, a JSON body out. Stateless; one instance serves every event loop.
 */
public final class JsonProtocol {
  private static final String TARGET_PREFIX = "AmazonSQS.";

  private final QueueEngine engine;
  private final RequestMetrics metrics;

  public JsonProtocol(QueueEngine engine, RequestMetrics metrics) {
    this.engine = engine;
    this.metrics = metrics;
  }

  /** The rule of the AWS JSON protocol guide: an SQS X-Amz-Target, or the JSON 1.0 content type. */
  public static boolean accepts(String target, HttpServerRequest req) {
    if (target != null && target.startsWith(TARGET_PREFIX)) {
      return true;
    }
    String type = req.getHeader(Headers.CONTENT_TYPE);
    return type != null && type.startsWith(Headers.AMZ_JSON_1_0);
  }

  /** {@code startNanos}: when the request arrived, for the request timer. */
  public void handle(HttpServerRequest req, String target, Buffer body, Caller caller, CallerGone gone,
      long startNanos) {
    HttpServerResponse response = req.response();
    response.putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId());
    SqsAction<?, ?> action = actionOf(target);
    Future<Buffer> answer;
    try {
      answer = run(known(action, target), JsonReader.of(body), caller, gone);
    } catch (RuntimeException e) {
      answer = Future.failedFuture(e);
    }
    answer.onComplete((result, failure) -> {
      metrics.record(SqsActions.metricName(action), failure == null ? null : Failures.codeOf(failure), startNanos);
      if (response.ended() || response.closed()) {
        return;
      }
      if (failure == null) {
        response.putHeader(Headers.CONTENT_TYPE, Headers.AMZ_JSON_1_0_VALUE).end(result);
      } else {
        JsonErrors.render(response, failure);
      }
    });
  }

  /** Renders a request that failed before it reached its action, and counts it. */
  public void fail(HttpServerResponse response, String target, Throwable failure, long startNanos) {
    metrics.record(SqsActions.metricName(actionOf(target)), Failures.codeOf(failure), startNanos);
    JsonErrors.render(response, failure);
  }

  private <Q, R> Future<Buffer> run(SqsAction<Q, R> action, JsonReader in, Caller caller, CallerGone gone) {
    return action.invoke(engine, caller, in, gone).map(r -> JsonResponses.render(action, r));
  }

  private static SqsAction<?, ?> actionOf(String target) {
    return target != null && target.startsWith(TARGET_PREFIX)
        ? SqsActions.named(target.substring(TARGET_PREFIX.length())) : null;
  }

  private static SqsAction<?, ?> known(SqsAction<?, ?> action, String target) {
    if (action != null) {
      return action;
    }
    throw new SqsException(
        ErrorCode.UNSUPPORTED_OPERATION,
        target == null || !target.startsWith(TARGET_PREFIX)
            ? "The X-Amz-Target header must name an SQS action (AmazonSQS.<Action>)."
            : "The action " + target.substring(TARGET_PREFIX.length()) + " is not valid for this endpoint.");
  }
}
