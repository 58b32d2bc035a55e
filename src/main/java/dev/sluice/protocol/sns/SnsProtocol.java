package dev.sluice.protocol.sns;

import dev.sluice.api.Caller;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.RequestMetrics;
import dev.sluice.protocol.Headers;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Map;

/**
 * The SNS API on Sluice's port: {@code Action=} and its members in a form body or a query string,
 * at {@code /} (SNS has no resource paths), answered in XML. Stateless; one instance serves every
 * event loop.
 */
public final class SnsProtocol {
  /** The API version SNS requests carry. */
  public static final String VERSION = "2010-03-31";

  private final QueueEngine engine;
  private final RequestMetrics metrics;

  public SnsProtocol(QueueEngine engine, RequestMetrics metrics) {
    this.engine = engine;
    this.metrics = metrics;
  }

  /** {@code params}: the request's decoded parameters; {@code startNanos}: when it arrived. */
  public void handle(HttpServerRequest req, Map<String, String> params, Caller caller, CallerGone gone,
      long startNanos) {
    HttpServerResponse response = req.response();
    String name = params.get("Action");
    if (name == null) {
      fail(response, null, new SnsException(SnsErrorCode.MISSING_ACTION, "Missing Action"), caller, startNanos);
      return;
    }
    SnsAction<?, ?> action = SnsActions.named(name);
    if (action == null || !req.path().equals("/")) {
      String why = SnsActions.isNotServed(name) ? "The action " + name + " is not supported by Sluice."
          : "The action " + name + " is not valid for this endpoint.";
      fail(response, null, new SnsException(SnsErrorCode.INVALID_ACTION, why), caller, startNanos);
      return;
    }
    run(action, SnsReader.of(params), caller, gone).onComplete((document, failure) -> {
      if (failure != null) {
        fail(response, action, failure, caller, startNanos);
        return;
      }
      metrics.recordSns(action.name(), null, startNanos);
      if (!response.ended() && !response.closed()) {
        response.putHeader(Headers.CONTENT_TYPE, Headers.TEXT_XML_VALUE)
            .putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId())
            .end(document);
      }
    });
  }

  /** Counts a failure under {@code action} (null: none known) and answers it, unless the caller left. */
  public void fail(HttpServerResponse response, Throwable failure, Caller caller, long startNanos) {
    fail(response, null, failure, caller, startNanos);
  }

  private void fail(HttpServerResponse response, SnsAction<?, ?> action, Throwable failure, Caller caller,
      long startNanos) {
    SnsException e = SnsErrors.asSns(failure);
    metrics.recordSns(SnsActions.metricName(action), e.code(), startNanos);
    if (!response.ended() && !response.closed()) {
      SnsErrors.render(response, e, caller.requestId());
    }
  }

  private <Q, R> Future<String> run(SnsAction<Q, R> action, SnsReader in, Caller caller, CallerGone gone) {
    return action.invoke(engine, caller, in, gone).map(r -> SnsResponses.document(action, r, caller.requestId()));
  }
}
