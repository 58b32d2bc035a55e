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
import dev.sluice.protocol.json.JsonProtocol;
import dev.sluice.protocol.query.QueryErrors;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * The first handler of every HTTP request: tells the wire protocol apart (sqs-reference §1.1),
 * reads the body within its limit and hands the request on. Stateless; shared by every HTTP
 * verticle.
 */
final class HttpFront implements Handler<HttpServerRequest> {
  private final JsonProtocol json;
  private final Callers callers;
  private final int maxBodyBytes;
  private final Authenticator auth;

  HttpFront(JsonProtocol json, Callers callers, int maxBodyBytes, Authenticator auth) {
    this.auth = auth;
    this.json = json;
    this.callers = callers;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void handle(HttpServerRequest req) {
    long start = System.nanoTime();
    Caller caller = callers.of(req);
    String target = req.getHeader(Headers.X_AMZ_TARGET);
    if (!JsonProtocol.accepts(target, req)) {
      QueryErrors.render(req.response(), new SqsException(ErrorCode.INVALID_ACTION,
          "Sluice speaks the AWS JSON 1.0 protocol (POST with X-Amz-Target: AmazonSQS.<Action>);"
              + " the Query protocol is not supported by this version."), caller.requestId());
      return;
    }
    if (req.method() != HttpMethod.POST) {
      req.response().putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId());
      json.fail(req.response(), target,
          new SqsException(ErrorCode.UNSUPPORTED_OPERATION, "The AWS JSON protocol takes POST requests only."), start);
      return;
    }
    CallerGone gone = watchConnection(req, target);
    BodyReader.read(req, maxBodyBytes).onComplete((body, failure) -> {
      if (failure == null) {
        try {
          if (auth.on()) {
            auth.authenticate(new HttpSignedRequest(req, body));
          }
        } catch (SqsException refused) {
          req.response().putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId());
          // The server's time, so that an SDK can correct a skewed clock and sign again.
          req.response().putHeader("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
          json.fail(req.response(), target, refused, start);
          return;
        }
        json.handle(req, target, body, caller, gone, start);
      } else if (!req.response().ended()) {
        req.response().putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId());
        json.fail(req.response(), target, failure, start);
      }
    });
  }

  /** Only a receive can be parked, so only a receive listens for its connection closing. */
  private static CallerGone watchConnection(HttpServerRequest req, String target) {
    if (!"AmazonSQS.ReceiveMessage".equals(target)) {
      return CallerGone.NOT_WATCHED;
    }
    CallerGone gone = new CallerGone();
    req.response().closeHandler(v -> gone.fire());
    return gone;
  }
}
