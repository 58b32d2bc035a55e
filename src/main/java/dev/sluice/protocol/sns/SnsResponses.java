package dev.sluice.protocol.sns;

import dev.sluice.protocol.query.Xml;

/**
 * An SNS action's answer: {@code <XResponse>} in the SNS namespace around {@code <XResult>} (left
 * out when the action has no result) and the request id, as SNS writes it.
 */
final class SnsResponses {
  static final String NAMESPACE = "http://sns.amazonaws.com/doc/2010-03-31/";

  private SnsResponses() {}

  static <R> String document(SnsAction<?, R> action, R response, String requestId) {
    String name = action.name();
    String result = action.resultOf(response);
    StringBuilder out = new StringBuilder(256).append("<?xml version=\"1.0\"?><").append(name)
        .append("Response xmlns=\"").append(NAMESPACE).append("\">");
    if (result != null) {
      out.append('<').append(name).append("Result>").append(result).append("</").append(name).append("Result>");
    }
    return out.append("<ResponseMetadata><RequestId>").append(Xml.escape(requestId))
        .append("</RequestId></ResponseMetadata></").append(name).append("Response>").toString();
  }
}
