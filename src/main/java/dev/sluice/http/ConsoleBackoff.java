package dev.sluice.http;

import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.QueueKey;
import dev.sluice.api.RedeliveryBackoffPolicy;
import dev.sluice.api.SqsException;
import dev.sluice.auth.Identity;
import dev.sluice.config.SqsConfig;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.QueueEngine;
import dev.sluice.engine.QueueUrls;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The console's admin route of a queue's redelivery backoff (a Sluice extension, no SQS attribute):
 * {@code GET}, {@code PUT} (body {@code {"baseSeconds":n,"maxSeconds":m}}) and {@code DELETE} of
 * {@code queues/{account}/{region}/{name}/redelivery-backoff}. Every answer is the policy as it is
 * now, {@code {"baseSeconds":null,"maxSeconds":null}} when there is none. A bad body or policy
 * answers 400 InvalidParameterValue, an unknown queue 404 NotFound. The caller is the operator, as
 * for the console's SQS calls; a cluster node forwards the call to the queue's owner. Changes are
 * logged at INFO: with one shared token, the log is the audit trail. Behind the console guard.
 * Stateless.
 */
final class ConsoleBackoff implements Handler<RoutingContext> {
  private static final System.Logger LOG = System.getLogger(ConsoleBackoff.class.getName());
  /** Far more than any policy's JSON: a larger body is refused unread. */
  static final int MAX_BODY_BYTES = 1024;

  private final QueueEngine engine;
  private final Callers callers;
  private final SqsConfig sqs;

  ConsoleBackoff(QueueEngine engine, Callers callers, SqsConfig sqs) {
    this.engine = engine;
    this.callers = callers;
    this.sqs = sqs;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    String account = ctx.pathParam("account");
    String region = ctx.pathParam("region");
    String name = ctx.pathParam("name");
    if (!QueueUrls.isAccountId(account) || !sqs.servesRegionNamed(region)) {
      ConsoleErrors.render(req, 400, ConsoleErrors.INVALID_PARAMETER_VALUE, "The account must be a 12-digit account"
          + " id and the region one this server serves, named as AWS names regions (us-east-1).");
      return;
    }
    Caller caller = callers.ofOperator(req, new Identity(null, sqs.accountId(), region));
    String url = QueueUrls.urlOf(caller.baseUrl(), new QueueKey(account, region, name));
    Future<RedeliveryBackoffPolicy.Response> answer;
    if (req.method() == HttpMethod.GET) {
      answer = engine.run(EngineActions.GET_REDELIVERY_BACKOFF, caller, new RedeliveryBackoffPolicy.GetRequest(url),
          CallerGone.NOT_WATCHED);
    } else if (req.method() == HttpMethod.DELETE) {
      answer = set(caller, new RedeliveryBackoffPolicy.SetRequest(url, null, null), req);
    } else {
      answer = body(req).compose(json -> set(caller, request(url, json), req));
    }
    answer.onComplete((policy, failure) -> {
      if (failure instanceof SqsException e && e.code() == ErrorCode.QUEUE_DOES_NOT_EXIST) {
        ConsoleErrors.render(req, 404, ConsoleErrors.NOT_FOUND, "The queue " + name + " does not exist in account "
            + account + " and region " + region + ".");
      } else if (failure != null) {
        ConsoleAnswers.failure(ctx, failure);
      } else if (!ctx.response().closed() && !ctx.response().ended()) {
        ctx.response().putHeader("content-type", ConsoleHeaders.JSON).end(json(policy).toBuffer());
      }
    });
  }

  private Future<RedeliveryBackoffPolicy.Response> set(Caller caller, RedeliveryBackoffPolicy.SetRequest r,
      HttpServerRequest req) {
    return engine.run(EngineActions.SET_REDELIVERY_BACKOFF, caller, r, CallerGone.NOT_WATCHED)
        .onSuccess(done -> LOG.log(System.Logger.Level.INFO, "console: redelivery backoff of " + r.queueUrl()
            + (r.baseSeconds() == null ? " removed" : " set to " + r.baseSeconds() + ".." + r.maxSeconds() + " s")
            + " from " + req.remoteAddress().hostAddress()));
  }

  /** The body, at most {@link #MAX_BODY_BYTES} with its Content-Length, as a JSON object. */
  private static Future<JsonObject> body(HttpServerRequest req) {
    String length = req.getHeader("content-length");
    if (length == null || !length.matches("\\d{1,9}") || Integer.parseInt(length) > MAX_BODY_BYTES) {
      return Future.failedFuture(SqsException.invalidParameter("The body must be a JSON object of at most "
          + MAX_BODY_BYTES + " bytes, sent with its Content-Length."));
    }
    return req.body().map(ConsoleBackoff::object);
  }

  private static JsonObject object(Buffer body) {
    try {
      return new JsonObject(body);
    } catch (DecodeException | ClassCastException notAnObject) {
      throw SqsException.invalidParameter("The body must be a JSON object {\"baseSeconds\":n,\"maxSeconds\":m}.");
    }
  }

  /** The request a body asks for: both members whole numbers (checked against the policy's bounds later). */
  static RedeliveryBackoffPolicy.SetRequest request(String url, JsonObject json) {
    for (String field : json.fieldNames()) {
      if (!field.equals("baseSeconds") && !field.equals("maxSeconds")) {
        throw SqsException.invalidParameter("Unknown member " + field + ": a redelivery backoff takes baseSeconds"
            + " and maxSeconds.");
      }
    }
    return new RedeliveryBackoffPolicy.SetRequest(url, seconds(json, "baseSeconds"), seconds(json, "maxSeconds"));
  }

  private static Integer seconds(JsonObject json, String field) {
    Object v = json.getValue(field);
    if (!(v instanceof Integer || v instanceof Long) || ((Number) v).longValue() != ((Number) v).intValue()) {
      throw SqsException.invalidParameter(field + " must be a whole number of seconds.");
    }
    return ((Number) v).intValue();
  }

  static JsonObject json(RedeliveryBackoffPolicy.Response policy) {
    return new JsonObject().put("baseSeconds", policy.baseSeconds()).put("maxSeconds", policy.maxSeconds());
  }
}
