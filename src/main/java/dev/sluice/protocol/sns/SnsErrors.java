package dev.sluice.protocol.sns;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.protocol.Failures;
import dev.sluice.protocol.Headers;
import dev.sluice.protocol.query.Xml;
import io.vertx.core.http.HttpServerResponse;

/**
 * The one place SNS errors are rendered: an {@code ErrorResponse} in the SNS namespace. A failure
 * raised by what SNS shares with SQS (signatures, the serving gate, the memory and writer bounds)
 * is answered under SNS's code for it, with its own text.
 */
public final class SnsErrors {
  private SnsErrors() {}

  /** The SNS error {@code failure} is answered with; an unexpected failure is logged as a bug. */
  static SnsException asSns(Throwable failure) {
    if (failure instanceof SnsException e) {
      return e;
    }
    SqsException e = Failures.asSqs(failure);
    return new SnsException(codeFor(e.code()), e.getMessage());
  }

  static SnsErrorCode codeFor(ErrorCode code) {
    return switch (code) {
      case INVALID_CLIENT_TOKEN_ID -> SnsErrorCode.INVALID_CLIENT_TOKEN_ID;
      case SIGNATURE_DOES_NOT_MATCH -> SnsErrorCode.SIGNATURE_DOES_NOT_MATCH;
      case MISSING_AUTHENTICATION_TOKEN -> SnsErrorCode.MISSING_AUTHENTICATION_TOKEN;
      case INCOMPLETE_SIGNATURE -> SnsErrorCode.INCOMPLETE_SIGNATURE;
      case REQUEST_THROTTLED -> SnsErrorCode.THROTTLED;
      case SERVICE_UNAVAILABLE -> SnsErrorCode.SERVICE_UNAVAILABLE;
      case INVALID_PARAMETER_VALUE -> SnsErrorCode.INVALID_PARAMETER_VALUE;
      case MISSING_PARAMETER -> SnsErrorCode.VALIDATION_ERROR;
      case INVALID_ACTION, UNSUPPORTED_OPERATION -> SnsErrorCode.INVALID_ACTION;
      case ACCESS_DENIED -> SnsErrorCode.AUTHORIZATION_ERROR;
      default -> SnsErrorCode.INTERNAL_ERROR;
    };
  }

  static void render(HttpServerResponse response, SnsException e, String requestId) {
    response
        .setStatusCode(e.code().httpStatus())
        .putHeader(Headers.CONTENT_TYPE, Headers.TEXT_XML_VALUE)
        .putHeader(Headers.X_AMZN_REQUEST_ID, requestId)
        .end(document(e, requestId));
  }

  static String document(SnsException e, String requestId) {
    return "<?xml version=\"1.0\"?><ErrorResponse xmlns=\"" + SnsResponses.NAMESPACE + "\"><Error><Type>"
        + (e.code().senderFault() ? "Sender" : "Receiver") + "</Type><Code>" + Xml.escape(e.code().code())
        + "</Code><Message>" + Xml.escape(e.getMessage()) + "</Message></Error><RequestId>" + Xml.escape(requestId)
        + "</RequestId></ErrorResponse>";
  }
}
