package dev.sluice.http;

import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;
import dev.sluice.auth.Authenticator;
import dev.sluice.auth.CredentialScope;
import dev.sluice.auth.SigV4Verifier;
import dev.sluice.engine.CallerGone;
import dev.sluice.protocol.Failures;
import dev.sluice.protocol.Headers;
import dev.sluice.protocol.json.JsonProtocol;
import dev.sluice.protocol.query.QueryParams;
import dev.sluice.protocol.query.QueryProtocol;
import dev.sluice.protocol.sns.SnsProtocol;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Serves one SQS or SNS request: tells the wire protocol apart (an SQS {@code X-Amz-Target} or the
 * JSON 1.0 content type is the AWS JSON protocol, anything else the Query protocol) and the API
 * ({@link ApiDetection}: SNS is served on the same port, by the Query protocol only), checks what the
 * signature's headers say and settles who the request acts as before reading the body, reads the
 * body within the action's limit and the server's budget, checks the signature against it, and
 * hands the request to its protocol. A request refused before its body was read closes its
 * connection once answered, so that the body is never read. The console's SQS passthrough runs its
 * JSON requests through {@link #serveJson} as well. Stateless apart from the connection
 * states it is given; one per HTTP verticle.
 */
final class SqsApiHandler implements Handler<HttpServerRequest> {
  private static final String RECEIVE_TARGET = "AmazonSQS.ReceiveMessage";
  private static final String SEND_TARGET = "AmazonSQS.SendMessage";
  private static final String SEND_BATCH_TARGET = "AmazonSQS.SendMessageBatch";

  private final JsonProtocol json;
  private final QueryProtocol query;
  private final SnsProtocol sns;
  private final Callers callers;
  private final int maxBodyBytes;
  private final Authenticator auth;
  private final BodyReader bodies;
  private final ConnectionGuard connections;

  SqsApiHandler(JsonProtocol json, QueryProtocol query, SnsProtocol sns, Callers callers, int maxBodyBytes,
      Authenticator auth, BodyReader bodies, ConnectionGuard connections) {
    this.json = json;
    this.query = query;
    this.sns = sns;
    this.callers = callers;
    this.maxBodyBytes = maxBodyBytes;
    this.auth = auth;
    this.bodies = bodies;
    this.connections = connections;
  }

  @Override
  public void handle(HttpServerRequest req) {
    long start = System.nanoTime();
    String target = req.getHeader(Headers.X_AMZ_TARGET);
    boolean isJson = JsonProtocol.accepts(target, req);
    if (isJson && req.method() != HttpMethod.POST) {
      Refusals.closeIfUnread(req);
      fail(req, true, false, target, new SqsException(ErrorCode.UNSUPPORTED_OPERATION,
          "The AWS JSON protocol takes POST requests only."), callers.of(req, auth.unadmitted()), start);
      return;
    }
    Authenticator.Admission admitted;
    // With authentication on, a SubscribeURL or UnsubscribeURL followed is let in unsigned, for its one action.
    String linkAction = auth.on() && !isJson ? ApiDetection.unsignedLinkAction(req) : null;
    try {
      admitted = linkAction != null ? auth.admitLink(ApiDetection.linkArn(req, linkAction))
          : auth.admit(new HttpSignedRequest(req, null));
    } catch (SqsException refused) {
      // Answered in the API the request is signed for, read from its credential scope only here.
      CredentialScope scope = isJson ? null : CredentialScope.of(new HttpSignedRequest(req, null));
      Refusals.closeIfUnread(req);
      fail(req, isJson, scope != null && ApiDetection.signedForSns(scope.service()), target, refused,
          callers.of(req, auth.unadmitted()), start);
      return;
    }
    // Which API a signed request is for is known before its body: SDKs sign each for its service.
    boolean signedForSns = !isJson && ApiDetection.signedForSns(admitted.service());
    // Who the request acts as is settled here, once, on this event loop.
    Caller caller = linkAction != null ? callers.ofLink(req, admitted.identity()) : callers.of(req, admitted.identity());
    SigV4Verifier.Signature signed = admitted.signature();
    if (isJson) {
      serveJson(req, target, caller, signed, start, null);
      return;
    }
    CallerGone gone = watch(req);
    bodies.read(req, limitOf(false, target), connections.of(req)).onComplete((read, failure) -> {
      if (failure != null) {
        if (answerable(req, failure)) {
          fail(req, false, signedForSns, target, failure, caller, start);
        }
        return;
      }
      boolean isSns = signedForSns;
      try {
        if (signed != null) {
          signed.verify(new HttpSignedRequest(req, read.body));
        }
        Map<String, String> params = QueryParams.of(req.query(), isForm(req) ? read.body : null);
        isSns = signedForSns || (admitted.service() == null && ApiDetection.unsignedIsSns(params));
        if (linkAction != null && !linkAction.equals(params.get("Action"))) {
          throw new SqsException(ErrorCode.MISSING_AUTHENTICATION_TOKEN, "Request is missing Authentication Token");
        }
        if (isSns) {
          sns.handle(req, params, caller, gone, start);
        } else {
          query.handle(req, params, caller, gone, start);
        }
      } catch (SqsException refused) {
        fail(req, false, isSns, target, refused, caller, start);
      } finally {
        // Decoded into the request's own values by now: the raw bytes are no longer held.
        read.release();
      }
    });
  }

  /**
   * Serves an AWS JSON protocol request whose caller is settled: reads its body within the
   * action's limit and the server's budget, checks the signature (when {@code signed} is not null)
   * and runs the action. The console's SQS passthrough calls this too, as the operator, so that a
   * console call is answered exactly as a signed SDK call is. {@code onBody}, when not null, sees the
   * body once it is read and before the action runs (the console's audit line).
   */
  void serveJson(HttpServerRequest req, String target, Caller caller, SigV4Verifier.Signature signed, long start,
      Consumer<Buffer> onBody) {
    CallerGone gone = watchJsonReceive(req, target);
    bodies.read(req, limitOf(true, target), connections.of(req)).onComplete((read, failure) -> {
      if (failure != null) {
        if (answerable(req, failure)) {
          fail(req, true, false, target, failure, caller, start);
        }
        return;
      }
      try {
        if (signed != null) {
          signed.verify(new HttpSignedRequest(req, read.body));
        }
        if (onBody != null) {
          onBody.accept(read.body);
        }
        json.handle(req, target, read.body, caller, gone, start);
      } catch (SqsException refused) {
        fail(req, true, false, target, refused, caller, start);
      } finally {
        // Decoded into the request's own values by now: the raw bytes are no longer held.
        read.release();
      }
    });
  }

  /** Answers a JSON protocol request refused before its body was read, which stays unread. */
  void refuseJson(HttpServerRequest req, String target, SqsException refused, Caller caller, long start) {
    Refusals.closeIfUnread(req);
    fail(req, true, false, target, refused, caller, start);
  }

  /**
   * Whether a body that could not be read is still to be answered (closing the connection after,
   * the body unread): not when the client hung up before its request was whole, for then there
   * is nobody to answer and no failure to count.
   */
  private static boolean answerable(HttpServerRequest req, Throwable failure) {
    if (Failures.isClientGone(failure)) {
      Failures.clientGone(failure);
      return false;
    }
    if (req.response().ended() || req.response().closed()) {
      return false;
    }
    Refusals.closeIfUnread(req);
    return true;
  }

  /** The largest body the action may have: sends carry up to 1 MiB of messages, escaped. */
  private int limitOf(boolean isJson, String target) {
    if (isJson && !SEND_TARGET.equals(target) && !SEND_BATCH_TARGET.equals(target)) {
      return Math.min(maxBodyBytes, Limits.OTHER_REQUEST_MAX_BYTES);
    }
    return maxBodyBytes; // a Query request's action may be in the body, not read yet
  }

  /** Answers {@code failure} in the request's API and wire protocol. */
  private void fail(HttpServerRequest req, boolean isJson, boolean isSns, String target, Throwable failure,
      Caller caller, long start) {
    if (isAuthFailure(failure)) {
      // The server's time, so that an SDK can correct a skewed clock and sign again.
      req.response().putHeader("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
    }
    if (isJson) {
      req.response().putHeader(Headers.X_AMZN_REQUEST_ID, caller.requestId());
      json.fail(req.response(), target, failure, start);
    } else if (isSns) {
      sns.fail(req.response(), failure, caller, start);
    } else {
      query.fail(req.response(), null, failure, caller, start);
    }
  }

  private static boolean isAuthFailure(Throwable failure) {
    return failure instanceof SqsException e && switch (e.code()) {
      case SIGNATURE_DOES_NOT_MATCH, INVALID_CLIENT_TOKEN_ID, MISSING_AUTHENTICATION_TOKEN, INCOMPLETE_SIGNATURE -> true;
      default -> false;
    };
  }

  private static boolean isForm(HttpServerRequest req) {
    String type = req.getHeader(Headers.CONTENT_TYPE);
    return req.method() == HttpMethod.POST && (type == null || type.startsWith("application/x-www-form-urlencoded"));
  }

  /** Only a receive can be parked, so on the JSON protocol only a receive listens for its connection closing. */
  private static CallerGone watchJsonReceive(HttpServerRequest req, String target) {
    return RECEIVE_TARGET.equals(target) ? watch(req) : CallerGone.NOT_WATCHED;
  }

  /** A Query request's action may be in its body, not read yet: every Query request is watched. */
  private static CallerGone watch(HttpServerRequest req) {
    CallerGone gone = new CallerGone();
    req.response().closeHandler(v -> gone.fire());
    return gone;
  }
}
