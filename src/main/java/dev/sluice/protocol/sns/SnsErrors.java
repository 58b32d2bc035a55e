package dev.sluice.protocol.sns;

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
    return new SnsException(SnsErrorCode.of(e.code()), e.getMessage());
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
