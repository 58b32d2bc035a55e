package dev.sluice.protocol.query;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.protocol.Headers;
import io.vertx.core.http.HttpServerResponse;

/**
 * The one place errors are rendered on the Query protocol: an {@code ErrorResponse} XML document in
 * the 2012-11-05 namespace with the legacy code (the SQS Query API guide).
 */
public final class QueryErrors {
  private QueryErrors() {}

  public static void render(HttpServerResponse response, SqsException e, String requestId) {
    response
        .setStatusCode(e.code().httpStatus())
        .putHeader(Headers.CONTENT_TYPE, Headers.TEXT_XML_VALUE)
        .putHeader(Headers.X_AMZN_REQUEST_ID, requestId)
        .end(document(e, requestId));
  }

  static String document(SqsException e, String requestId) {
    ErrorCode code = e.code();
    // Messages SQS words differently on this protocol (the SQS common errors; AccessDenied).
    String message = e.queryMessage() != null ? e.queryMessage()
        : code == ErrorCode.QUEUE_DOES_NOT_EXIST ? "The specified queue does not exist for this wsdl version."
        : e.getMessage();
    return "<?xml version=\"1.0\"?><ErrorResponse xmlns=\"" + XmlResponses.NAMESPACE + "\">"
        + "<Error><Type>" + (code.senderFault() ? "Sender" : "Receiver") + "</Type>"
        + "<Code>" + Xml.escape(code.queryCode()) + "</Code>"
        + "<Message>" + Xml.escape(message) + "</Message><Detail/></Error>"
        + "<RequestId>" + Xml.escape(requestId) + "</RequestId></ErrorResponse>";
  }
}
