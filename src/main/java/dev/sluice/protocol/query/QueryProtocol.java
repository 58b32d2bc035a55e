package dev.sluice.protocol.query;

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
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Query protocol (the SQS Query API guide), for SDKs from before the JSON protocol: {@code Action=}
 * in a form body or a query string, on {@code /} or on a queue's URL path, answered in XML. The
 * same actions as the JSON protocol ({@link SqsActions}: one decoder, one engine call each), their
 * members read from the flattened parameters ({@link QueryReader}) and their results rendered as
 * XML ({@link XmlResponses}). Stateless; one instance serves every event loop.
 */
public final class QueryProtocol {
  /** Actions that name no queue: refused at a queue's path, as AWS does. */
  static final Set<String> NOT_AT_A_QUEUE_PATH = Set.of("CreateQueue", "ListQueues");
  private static final Pattern QUEUE_PATH = Pattern.compile("/[^/]+/[^/]+/?");

  private final QueueEngine engine;
  private final RequestMetrics metrics;

  public QueryProtocol(QueueEngine engine, RequestMetrics metrics) {
    this.engine = engine;
    this.metrics = metrics;
  }

  /** {@code params}: the request's decoded parameters; {@code startNanos}: when it arrived. */
  public void handle(HttpServerRequest req, Map<String, String> params, Caller caller, CallerGone gone,
      long startNanos) {
    HttpServerResponse response = req.response();
    String name = params.get("Action");
    boolean atQueuePath = QUEUE_PATH.matcher(req.path()).matches();
    if (name == null && req.method() == HttpMethod.GET && atQueuePath && params.isEmpty()) {
      // What AWS answers a plain GET of a queue URL (the SQS Query API guide).
      response.setStatusCode(404).putHeader(Headers.CONTENT_TYPE, Headers.TEXT_XML_VALUE)
          .putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId()).end("<UnknownOperationException/>");
      metrics.record(SqsActions.UNKNOWN, ErrorCode.INVALID_ACTION, startNanos);
      return;
    }
    if (name == null) {
      fail(response, null, SqsException.missingParameter("Action"), caller, startNanos);
      return;
    }
    SqsAction<?, ?> action = SqsActions.named(name);
    if (action == null || (atQueuePath && NOT_AT_A_QUEUE_PATH.contains(name))) {
      fail(response, null, new SqsException(ErrorCode.INVALID_ACTION,
          "The action " + name + " is not valid for this endpoint."), caller, startNanos);
      return;
    }
    QueryReader in = QueryReader.of(name, params, atQueuePath ? caller.baseUrl() + req.path() : null);
    run(action, in, caller, gone).onComplete((document, failure) -> {
      if (failure != null) {
        fail(response, action, failure, caller, startNanos);
        return;
      }
      metrics.record(action.name(), null, startNanos);
      if (!response.ended() && !response.closed()) {
        response.putHeader(Headers.CONTENT_TYPE, Headers.TEXT_XML_VALUE)
            .putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId())
            .end(document);
      }
    });
  }

  /** Counts a failure under {@code action} (null: none known) and answers it, unless the caller left. */
  public void fail(HttpServerResponse response, SqsAction<?, ?> action, Throwable failure, Caller caller,
      long startNanos) {
    SqsException e = Failures.asSqs(failure);
    metrics.record(SqsActions.metricName(action), e.code(), startNanos);
    if (!response.ended() && !response.closed()) {
      QueryErrors.render(response, e, caller.requestId());
    }
  }

  private <Q, R> Future<String> run(SqsAction<Q, R> action, QueryReader in, Caller caller, CallerGone gone) {
    return action.invoke(engine, caller, in, gone).map(r -> XmlResponses.document(action, r, caller.requestId()));
  }
}
