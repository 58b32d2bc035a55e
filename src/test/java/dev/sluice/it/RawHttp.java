package dev.sluice.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 connection driven byte by byte, as an attacker or a broken client would: request
 * targets sent exactly as written (no client normalizes them), heads and bodies sent in pieces or
 * never finished, and the server's answer or its closing observed as they happen.
 */
final class RawHttp implements AutoCloseable {
  /** A response as read off the wire. */
  record Response(int status, String head, String body) {
    String header(String name) {
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }
  }

  private final Socket socket;
  private final InputStream in;

  RawHttp(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    in = socket.getInputStream();
  }

  /** Sends a GET of {@code target} exactly as given, with {@code headers} (each "Name: value"). */
  static Response get(int port, String target, String... headers) throws IOException {
    try (RawHttp c = new RawHttp(port)) {
      StringBuilder head = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
      for (String h : headers) {
        head.append(h).append("\r\n");
      }
      c.send(head.append("Connection: close\r\n\r\n").toString());
      return c.read(10_000);
    }
  }

  RawHttp send(String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    socket.getOutputStream().flush();
    return this;
  }

  RawHttp send(byte[] bytes) throws IOException {
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
    return this;
  }

  /**
   * Reads one response within {@code timeoutMillis}: its head, then a body of its Content-Length
   * (or until the server closes). A "100 Continue" interim response is returned as it is.
   */
  Response read(long timeoutMillis) throws IOException {
    socket.setSoTimeout((int) timeoutMillis);
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      head.write(b);
      byte[] h = head.toByteArray();
      int n = h.length;
      if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
        break;
      }
    }
    String headText = head.toString(StandardCharsets.ISO_8859_1);
    if (headText.isEmpty()) {
      throw new IOException("the server closed the connection without answering");
    }
    int status = Integer.parseInt(headText.substring(9, 12));
    Response partial = new Response(status, headText, "");
    String length = partial.header("content-length");
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (length != null) {
      byte[] bytes = in.readNBytes(Integer.parseInt(length));
      body.write(bytes);
    } else if (status != 100 && !"chunked".equalsIgnoreCase(partial.header("transfer-encoding"))) {
      in.transferTo(body);
    }
    return new Response(status, headText, body.toString(StandardCharsets.UTF_8));
  }

  /**
   * Whether the server closes the connection within {@code timeoutMillis} (reading and dropping
   * whatever it sends meanwhile); false when it is still open then.
   */
  boolean closedWithin(long timeoutMillis) throws IOException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    while (System.nanoTime() < deadline) {
      socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      try {
        if (in.read() == -1) {
          return true;
        }
      } catch (SocketTimeoutException e) {
        return false;
      } catch (IOException reset) {
        return true; // reset by the server
      }
    }
    return false;
  }

  /** A JSON 1.0 request head for {@code action} declaring {@code contentLength} body bytes. */
  static String jsonHead(int port, String action, long contentLength, String... extraHeaders) {
    StringBuilder h = new StringBuilder("POST / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
        + "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS." + action + "\r\n"
        + "Content-Length: " + contentLength + "\r\n");
    for (String e : extraHeaders) {
      h.append(e).append("\r\n");
    }
    return h.append("\r\n").toString();
  }

  static boolean contains(String text, String part) {
    return text.toLowerCase(Locale.ROOT).contains(part.toLowerCase(Locale.ROOT));
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
