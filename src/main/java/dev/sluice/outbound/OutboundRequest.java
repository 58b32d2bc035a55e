package dev.sluice.outbound;

import java.util.Map;

/**
 * One POST to make: the URL (user info in it becomes basic authentication), headers and body;
 * {@code timeoutMillis}, the whole exchange's time (0: the client's request timeout), and
 * {@code maxAnswerBytes}, the most of the answer's body to read and give back (0: none is given
 * back; a small one is read and dropped so that the connection is kept).
 */
public record OutboundRequest(String url, Map<String, String> headers, String body, long timeoutMillis,
    int maxAnswerBytes) {

  /** A request whose answer's body is not wanted, in the client's time. */
  public OutboundRequest(String url, Map<String, String> headers, String body) {
    this(url, headers, body, 0, 0);
  }
}
