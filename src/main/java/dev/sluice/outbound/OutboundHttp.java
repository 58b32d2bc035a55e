package dev.sluice.outbound;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * Posts requests to other servers with Vert.x core's HTTP client: on the caller's event loop,
 * whose context gets the result; never a failed future (a failure is an {@link OutboundResult}).
 * Bounded per endpoint (scheme, host and port) by the client's pool: at most
 * {@code maxConnectionsPerEndpoint} connections and {@code maxQueuedPerEndpoint} requests waiting,
 * past which a request fails at once, so that one slow endpoint holds neither others' connections
 * nor the heap. A request is given its own time, or {@code requestTimeoutMillis}, from its start to
 * its answer (its body included when it is read); an answer's body is given back up to the
 * request's bound, announced or as it streams, the connection reset past it; one not wanted is read
 * only when it is small (at most 64 KiB announced), else the connection is reset. Redirects are not followed. With {@code allowPrivateAddresses} false, the
 * endpoint's host is resolved first (on a worker: resolution may block) and a request to a
 * loopback, private, link-local or otherwise non-public address is refused; the connection then
 * goes to the address checked, so that a second resolution cannot point it elsewhere.
 */
public final class OutboundHttp {
  static final int MAX_ANSWER_BYTES = 65_536;

  private final Vertx vertx;
  /**
   * Where every request is made and answered: one event loop, so that every pooled connection is
   * that loop's and an answer's head and body reach their handlers in the order they arrive. A
   * request made from another loop than its connection's gets its answer a task later, by which
   * time a short answer may have ended, and the body handlers set then would be refused.
   */
  private final Context context;
  private final HttpClient client;
  private final OutboundSettings settings;

  /**
   * A client that verifies HTTPS endpoints' certificates and host names against the JVM's trust
   * store, making its requests on the event-loop context {@code context}.
   */
  public OutboundHttp(Vertx vertx, Context context, OutboundSettings settings) {
    this(vertx, context, settings, true);
  }

  /**
   * A client of its own, for one target (a trigger's): {@code verifyTls} false trusts any
   * certificate of any host, for a target with a self-signed certificate its owner chose to trust.
   */
  public OutboundHttp(Vertx vertx, Context context, OutboundSettings settings, boolean verifyTls) {
    this.vertx = vertx;
    this.context = context;
    this.settings = settings;
    this.client = vertx.httpClientBuilder()
        .with(new HttpClientOptions().setConnectTimeout(settings.connectTimeoutMillis()).setKeepAlive(true)
            .setVerifyHost(verifyTls).setTrustAll(!verifyTls)
            // A connection that reads nothing for a request's time is closed, answered or not: an
            // endpoint that announces a body and never sends it cannot hold a pooled connection.
            .setIdleTimeout(settings.requestTimeoutMillis()).setIdleTimeoutUnit(TimeUnit.MILLISECONDS))
        .with(new PoolOptions().setHttp1MaxSize(settings.maxConnectionsPerEndpoint())
            .setMaxWaitQueueSize(settings.maxQueuedPerEndpoint()))
        .build();
  }

  /**
   * Posts {@code r}; answers how it ended, on the caller's context (the request itself is made on
   * this client's).
   */
  public Future<OutboundResult> post(OutboundRequest r) {
    Context caller = vertx.getOrCreateContext();
    if (caller == context) {
      return postHere(r);
    }
    Promise<OutboundResult> answered = Promise.promise();
    context.runOnContext(v -> postHere(r).onComplete(result -> caller.runOnContext(w -> answered.handle(result))));
    return answered.future();
  }

  private Future<OutboundResult> postHere(OutboundRequest r) {
    URI uri;
    try {
      uri = new URI(r.url());
    } catch (URISyntaxException e) {
      return Future.succeededFuture(OutboundResult.failed("not a URL: " + e.getMessage()));
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
    if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
      return Future.succeededFuture(OutboundResult.failed("not an HTTP or HTTPS URL"));
    }
    boolean tls = scheme.equals("https");
    int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      path += "?" + uri.getRawQuery();
    }
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setSsl(tls).setFollowRedirects(false)
        .setHost(stripBrackets(uri.getHost())).setPort(port).setURI(path).setConnectTimeout(settings.connectTimeoutMillis());
    r.headers().forEach(options::putHeader);
    if (uri.getRawUserInfo() != null) {
      // SNS sends the URL's user info as basic authentication (AWS: Fanout to HTTP/S endpoints).
      options.putHeader("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          decode(uri.getRawUserInfo()).getBytes(StandardCharsets.UTF_8)));
    }
    if (settings.allowPrivateAddresses()) {
      return send(options, r);
    }
    String host = uri.getHost();
    return vertx.executeBlocking(() -> InetAddress.getAllByName(stripBrackets(host)), false).transform(resolved -> {
      if (resolved.failed()) {
        return Future.succeededFuture(OutboundResult.failed("the host " + host + " does not resolve"));
      }
      for (InetAddress a : resolved.result()) {
        if (!isPublic(a)) {
          return Future.succeededFuture(OutboundResult.notAllowed("the host " + host + " resolves to a non-public"
              + " address (private addresses are not allowed)"));
        }
      }
      options.setServer(SocketAddress.inetSocketAddress(port, resolved.result()[0].getHostAddress()));
      return send(options, r);
    });
  }

  private Future<OutboundResult> send(RequestOptions options, OutboundRequest r) {
    Promise<OutboundResult> done = Promise.promise();
    HttpClientRequest[] sent = new HttpClientRequest[1];
    long timeout = r.timeoutMillis() > 0 ? r.timeoutMillis() : settings.requestTimeoutMillis();
    long timer = vertx.setTimer(timeout, id -> {
      if (done.tryComplete(OutboundResult.timedOut("no answer within " + timeout + " ms")) && sent[0] != null) {
        sent[0].reset();
      }
    });
    done.future().onComplete(ended -> vertx.cancelTimer(timer));
    client.request(options).compose(req -> {
      sent[0] = req;
      // A reset (the timeout's, or a large answer's) fails the request: its outcome is the result, not a log line.
      req.exceptionHandler(ignored -> { });
      return req.send(r.body());
    }).onComplete(answered -> {
      if (answered.failed()) {
        done.tryComplete(OutboundResult.failed(describe(answered.cause())));
        return;
      }
      HttpClientResponse resp = answered.result();
      resp.exceptionHandler(ignored -> { });
      if (r.maxAnswerBytes() > 0) {
        read(resp, r.maxAnswerBytes(), done);
      } else {
        done.tryComplete(OutboundResult.answered(resp.statusCode(), null, null));
        drain(resp);
      }
    });
    return done.future();
  }

  /** Reads the answer's body up to {@code max} bytes, announced or as it streams; past it the connection is reset. */
  private static void read(HttpClientResponse resp, int max, Promise<OutboundResult> done) {
    int status = resp.statusCode();
    String functionError = resp.getHeader("X-Amz-Function-Error");
    long announced = announcedLength(resp);
    if (announced > max) {
      done.tryComplete(OutboundResult.tooLarge(status));
      resp.request().reset();
      return;
    }
    Buffer body = Buffer.buffer();
    resp.handler(chunk -> {
      if (body.length() + chunk.length() > max) {
        if (done.tryComplete(OutboundResult.tooLarge(status))) {
          resp.request().reset();
        }
        return;
      }
      body.appendBuffer(chunk);
    });
    resp.endHandler(end -> done.tryComplete(OutboundResult.answered(status, body.toString(StandardCharsets.UTF_8),
        functionError)));
  }

  /** Reads a small answer to its end so that the connection is kept; resets one that is large or of unknown size. */
  private static void drain(HttpClientResponse resp) {
    long announced = announcedLength(resp);
    if (announced >= 0 && announced <= MAX_ANSWER_BYTES) {
      resp.body();
    } else {
      resp.request().reset();
    }
  }

  /** The answer's Content-Length, or -1 when it has none (or none that reads). */
  private static long announcedLength(HttpClientResponse resp) {
    String length = resp.getHeader("Content-Length");
    try {
      return length == null ? -1 : Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String describe(Throwable failure) {
    String message = failure.getMessage();
    return failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** Whether {@code a} is an address of the public Internet. */
  static boolean isPublic(InetAddress a) {
    if (a.isLoopbackAddress() || a.isAnyLocalAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress()
        || a.isMulticastAddress()) {
      return false;
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet6Address) {
      return (b[0] & 0xfe) != 0xfc; // fc00::/7, unique local addresses
    }
    int first = b[0] & 0xff;
    int second = b[1] & 0xff;
    // 0/8 "this network", 100.64/10 shared address space (carrier NAT), 198.18/15 benchmarking, 240/4 reserved
    return first != 0 && !(first == 100 && second >= 64 && second < 128) && !(first == 198 && (second & 0xfe) == 18)
        && first < 240;
  }

  private static String stripBrackets(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  private static String decode(String rawUserInfo) {
    return java.net.URLDecoder.decode(rawUserInfo.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** Closes the client's connections. */
  public Future<Void> close() {
    return client.close();
  }
}
