package dev.sluice.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Requests to the console's API as a browser page (or an attacker) sends them, over {@link RawHttp}:
 * every header exactly as written, a {@code Host} of the caller's choosing, the answer's head as
 * read off the wire.
 */
final class ConsoleHttp {
  static final String CONSOLE = "X-Sluice-Console: 1";

  private ConsoleHttp() {}

  /**
   * Sends {@code method target} with {@code headers} (each "Name: value"; {@code Host:
   * 127.0.0.1:<port>} unless one is given) and {@code body} (none when null), and reads the answer.
   */
  static RawHttp.Response send(int port, String method, String target, String body, String... headers)
      throws IOException {
    StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
    boolean hostGiven = false;
    for (String h : headers) {
      hostGiven |= h.regionMatches(true, 0, "Host:", 0, 5);
    }
    if (!hostGiven) {
      head.append("Host: 127.0.0.1:").append(port).append("\r\n");
    }
    for (String h : headers) {
      head.append(h).append("\r\n");
    }
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    if (body != null) {
      head.append("Content-Length: ").append(bytes.length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    try (RawHttp c = new RawHttp(port)) {
      c.send(head.toString()).send(bytes);
      return c.read(30_000);
    }
  }

  static RawHttp.Response get(int port, String target, String... headers) throws IOException {
    return send(port, "GET", target, null, headers);
  }

  /** An SQS action through {@code /console/api/sqs/<region>}, with the console's header and {@code extra} ones. */
  static RawHttp.Response sqs(int port, String region, String action, String json, String... extra)
      throws IOException {
    String[] headers = new String[extra.length + 3];
    headers[0] = CONSOLE;
    headers[1] = "Content-Type: application/x-amz-json-1.0";
    headers[2] = "X-Amz-Target: AmazonSQS." + action;
    System.arraycopy(extra, 0, headers, 3, extra.length);
    return send(port, "POST", "/console/api/sqs/" + region, json, headers);
  }
}
