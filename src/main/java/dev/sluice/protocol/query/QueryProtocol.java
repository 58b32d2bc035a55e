package dev.sluice.protocol.query;

import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.metrics.RequestMetrics;
import dev.sluice.protocol.Headers;
import dev.sluice.protocol.json.JsonErrors;
import dev.sluice.protocol.json.JsonProtocol;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Query protocol (sqs-reference §1.4), for SDKs from before the JSON protocol: {@code Action=}
 * in a form body or a query string, on {@code /} or on a queue's URL path, answered in XML. Each
 * request is decoded into the JSON protocol's members ({@link QueryMembers}) and run through the
 * same action table, so both protocols share their decoders, validation and engine calls.
 * Stateless; one instance serves every event loop.
 */
public final class QueryProtocol {
  /** Actions that name no queue: refused at a queue's path, as AWS does. */
  static final Set<String> NOT_AT_A_QUEUE_PATH = Set.of("CreateQueue", "ListQueues");
  /** Actions whose response has no {@code <…Result>} element. */
  static final Set<String> NO_RESULT = Set.of("DeleteQueue", "SetQueueAttributes", "TagQueue", "UntagQueue",
      "PurgeQueue", "DeleteMessage", "ChangeMessageVisibility", "AddPermission", "RemovePermission");
  private static final Pattern QUEUE_PATH = Pattern.compile("/[^/]+/[^/]+/?");

  private final JsonProtocol actions;
  private final RequestMetrics metrics;

  public QueryProtocol(JsonProtocol actions, RequestMetrics metrics) {
    this.actions = actions;
    this.metrics = metrics;
  }

  public void handle(HttpServerRequest req, Map<String, String> params, Caller caller, CallerGone gone,
      long startNanos) {
    HttpServerResponse response = req.response();
    String action = params.get("Action");
    boolean atQueuePath = QUEUE_PATH.matcher(req.path()).matches();
    if (action == null && req.method() == HttpMethod.GET && atQueuePath && params.isEmpty()) {
      // What AWS answers a plain GET of a queue URL (sqs-reference §1.4).
      response.setStatusCode(404).putHeader(Headers.CONTENT_TYPE, Headers.TEXT_XML_VALUE)
          .putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId()).end("<UnknownOperationException/>");
      metrics.record(JsonProtocol.UNKNOWN_ACTION, ErrorCode.INVALID_ACTION, startNanos);
      return;
    }
    if (action == null) {
      fail(response, null, SqsException.missingParameter("Action"), caller, startNanos);
      return;
    }
    if (!JsonProtocol.knows(action) || (atQueuePath && NOT_AT_A_QUEUE_PATH.contains(action))) {
      fail(response, null, new SqsException(ErrorCode.INVALID_ACTION,
          "The action " + action + " is not valid for this endpoint."), caller, startNanos);
      return;
    }
    Map<String, Object> members = QueryMembers.of(action, params);
    if (atQueuePath && !members.containsKey("QueueUrl") && !action.equals("GetQueueUrl")) {
      // Older SDKs post to the queue's URL and leave QueueUrl out: the path names the queue.
      members.put("QueueUrl", caller.baseUrl() + req.path());
    }
    actions.invoke(action, members, caller, gone).onComplete((result, failure) -> {
      if (response.ended() || response.closed()) {
        metrics.record(action, failure == null ? null : JsonErrors.codeOf(failure), startNanos);
        return;
      }
      if (failure != null) {
        fail(response, action, failure, caller, startNanos);
        return;
      }
      metrics.record(action, null, startNanos);
      response.putHeader(Headers.CONTENT_TYPE, Headers.TEXT_XML_VALUE)
          .putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId())
          .end(QueryXml.response(action, NO_RESULT.contains(action) ? null : result, caller.requestId()));
    });
  }

  /** Renders a failure as an ErrorResponse and counts it under {@code action} (null: not known). */
  public void fail(HttpServerResponse response, String action, Throwable failure, Caller caller, long startNanos) {
    SqsException e = JsonErrors.asSqs(failure);
    if (e.code() == ErrorCode.SERIALIZATION_EXCEPTION) {
      // A Query value of the wrong type: the JSON decoder's complaint, under the Query error.
      e = new SqsException(ErrorCode.INVALID_PARAMETER_VALUE, e.getMessage());
    }
    metrics.record(action == null ? JsonProtocol.UNKNOWN_ACTION : action, e.code(), startNanos);
    QueryErrors.render(response, e, caller.requestId());
  }
}
