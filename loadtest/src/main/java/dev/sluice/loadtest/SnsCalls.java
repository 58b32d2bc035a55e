package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Raw SNS Query calls (form-encoded, version 2010-03-31) over a worker's Vert.x HTTP client; the
 * answer is the XML text. Owned by the worker verticle that made it.
 */
final class SnsCalls {
  private final HttpClient client;
  private final String host;
  private final int port;

  SnsCalls(HttpClient client, String host, int port) {
    this.client = client;
    this.host = host;
    this.port = port;
  }

  /** Posts a form body made by {@link #form}; fails with the status and body of any answer but 200. */
  Future<String> call(Buffer form) {
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port).setURI("/")
        .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8");
    return client.request(options)
        .compose(req -> req.send(form))
        .compose(resp -> resp.body().compose(b -> resp.statusCode() == 200 ? Future.succeededFuture(b.toString())
            : Future.failedFuture(new IllegalStateException("SNS " + resp.statusCode() + ": " + b))));
  }

  /** {@code Action=action&Version=2010-03-31} and the name/value pairs, form-encoded. */
  static Buffer form(String action, String... pairs) {
    StringBuilder b = new StringBuilder("Action=").append(action).append("&Version=2010-03-31");
    for (int i = 0; i < pairs.length; i += 2) {
      b.append('&').append(pairs[i]).append('=').append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
    }
    return Buffer.buffer(b.toString());
  }

  /** The text of the first {@code <element>} of an XML answer. */
  static String element(String xml, String element) {
    int from = xml.indexOf("<" + element + ">") + element.length() + 2;
    return xml.substring(from, xml.indexOf("</" + element + ">", from));
  }
}
