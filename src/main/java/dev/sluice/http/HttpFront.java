package dev.sluice.http;

import dev.sluice.protocol.Headers;
import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.auth.Authenticator;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import dev.sluice.engine.CallerGone;
import dev.sluice.protocol.Failures;
import dev.sluice.protocol.json.JsonProtocol;
import dev.sluice.protocol.query.QueryParams;
import dev.sluice.protocol.query.QueryProtocol;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * The first handler of every HTTP request: tells the wire protocol apart (sqs-reference §1.1),
 * reads the body within its limit, checks the signature when authentication is on, and hands the
 * request to the JSON or the Query protocol. Stateless; shared by every HTTP
 * verticle.
 */
final class HttpFront implements Handler<HttpServerRequest> {
  private final JsonProtocol json;
  private final QueryProtocol query;
  private final Callers callers;
  private final int maxBodyBytes;
  private final Authenticator auth;

  HttpFront(JsonProtocol json, QueryProtocol query, Callers callers, int maxBodyBytes, Authenticator auth) {
    this.auth = auth;
    this.json = json;
    this.query = query;
    this.callers = callers;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void handle(HttpServerRequest req) {
    long start = System.nanoTime();
    Caller caller = callers.of(req);
    String target = req.getHeader(Headers.X_AMZ_TARGET);
    boolean isJson = JsonProtocol.accepts(target, req);
    if (isJson && req.method() != HttpMethod.POST) {
      req.response().putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId());
      json.fail(req.response(), target,
          new SqsException(ErrorCode.UNSUPPORTED_OPERATION, "The AWS JSON protocol takes POST requests only."), start);
      return;
    }
    CallerGone gone = isJson ? watchJsonReceive(req, target) : watch(req);
    BodyReader.read(req, maxBodyBytes).onComplete((body, failure) -> {
      if (failure != null) {
        if (Failures.isClientGone(failure)) {
          // It hung up before its request was whole: nobody to answer, and no failure to count.
          Failures.clientGone(failure);
        } else if (!req.response().ended()) {
          fail(req, isJson, target, failure, caller, start);
        }
        return;
      }
      try {
        if (auth.on()) {
          auth.authenticate(new HttpSignedRequest(req, body));
        }
      } catch (SqsException refused) {
        // The server's time, so that an SDK can correct a skewed clock and sign again.
        req.response().putHeader("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
        fail(req, isJson, target, refused, caller, start);
        return;
      }
      if (isJson) {
        json.handle(req, target, body, caller, gone, start);
      } else {
        query.handle(req, QueryParams.of(req.query(), isForm(req) ? body : null), caller, gone, start);
      }
    });
  }

  private void fail(HttpServerRequest req, boolean isJson, String target, Throwable failure, Caller caller,
      long start) {
    if (isJson) {
      req.response().putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId());
      json.fail(req.response(), target, failure, start);
    } else {
      query.fail(req.response(), null, failure, caller, start);
    }
  }

  private static boolean isForm(HttpServerRequest req) {
    String type = req.getHeader(Headers.CONTENT_TYPE);
    return req.method() == HttpMethod.POST && (type == null || type.startsWith("application/x-www-form-urlencoded"));
  }

  /** Only a receive can be parked, so on the JSON protocol only a receive listens for its connection closing. */
  private static CallerGone watchJsonReceive(HttpServerRequest req, String target) {
    return "AmazonSQS.ReceiveMessage".equals(target) ? watch(req) : CallerGone.NOT_WATCHED;
  }

  /** A Query request's action may be in its body, not read yet: every Query request is watched. */
  private static CallerGone watch(HttpServerRequest req) {
    CallerGone gone = new CallerGone();
    req.response().closeHandler(v -> gone.fire());
    return gone;
  }
}
