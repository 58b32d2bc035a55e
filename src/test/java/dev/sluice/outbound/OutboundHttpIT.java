package dev.sluice.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link OutboundHttp} against a real HTTP server on 127.0.0.1: what it sends, how it ends a
 * request that is not answered, how it bounds the requests to one endpoint, and that it keeps off
 * private addresses when told to.
 */
class OutboundHttpIT {
  static Vertx vertx;
  static HttpServer server;
  static int port;
  static final List<HttpServerRequest> hanging = new CopyOnWriteArrayList<>();
  static final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      seen.add(Map.of("path", req.uri(), "auth", String.valueOf(req.getHeader("Authorization")),
          "type", String.valueOf(req.getHeader("Content-Type")), "body", body.toString()));
      switch (req.path()) {
        case "/hang" -> hanging.add(req);
        case "/big" -> req.response().setChunked(true).end("x".repeat(200_000));
        case "/answer" -> req.response().putHeader("X-Amz-Function-Error", "Unhandled").end("{\"errorType\": \"E\"}");
        case "/announced" -> req.response().end("y".repeat(5_000));
        case "/slow-body" -> {
          req.response().setChunked(true).write("{\"batchItemFailures\": ");
          hanging.add(req);
        }
        case "/redirect" -> req.response().setStatusCode(302).putHeader("Location", "/ok").end();
        default -> req.response().setStatusCode(201).end("fine");
      }
    })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    port = server.actualPort();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static OutboundResult post(OutboundHttp out, String path) throws Exception {
    return await(out.post(new OutboundRequest("http://user%40x:p%3Ass@127.0.0.1:" + port + path,
        new java.util.HashMap<>(Map.of("Content-Type", "text/plain")), "hello")));
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @Test
  void postsTheBodyWithItsHeadersAndBasicAuthenticationFromTheUrl() throws Exception {
    OutboundHttp out = new OutboundHttp(vertx, EventLoops.newEventLoopContext(vertx), new OutboundSettings(1000, 2000, 2, 10, true));
    OutboundResult r = post(out, "/ok?a=1");
    assertEquals(201, r.status());
    assertTrue(r.delivered());
    Map<String, String> got = seen.stream().filter(m -> m.get("path").equals("/ok?a=1")).findFirst().orElseThrow();
    assertEquals("hello", got.get("body"));
    assertEquals("text/plain", got.get("type"));
    assertEquals("Basic " + java.util.Base64.getEncoder().encodeToString("user@x:p:ss".getBytes()), got.get("auth"));
    OutboundResult redirect = post(out, "/redirect");
    assertEquals(302, redirect.status(), "a redirect is not followed");
    assertFalse(redirect.delivered());
    assertEquals(200, post(out, "/big").status(),
        "a large answer's status counts; its body is not read");
    assertEquals(201, post(out, "/ok").status(), "and the client goes on");
    await(out.close());
  }

  @Test
  void aRequestNotAnsweredEndsAtItsTimeoutAndWaitingRequestsAreBounded() throws Exception {
    OutboundHttp out = new OutboundHttp(vertx, EventLoops.newEventLoopContext(vertx), new OutboundSettings(1000, 1500, 1, 1, true));
    int hangingBefore = hanging.size();
    long start = System.nanoTime();
    Future<OutboundResult> first = out.post(new OutboundRequest("http://127.0.0.1:" + port + "/hang",
        new java.util.HashMap<>(), "a"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (hanging.size() == hangingBefore && System.nanoTime() < deadline) {
      Thread.sleep(5); // until the first holds the endpoint's one connection
    }
    Future<OutboundResult> second = out.post(new OutboundRequest("http://127.0.0.1:" + port + "/hang",
        new java.util.HashMap<>(), "b"));
    long third = System.nanoTime();
    OutboundResult refused = await(out.post(new OutboundRequest("http://127.0.0.1:" + port + "/hang",
        new java.util.HashMap<>(), "c")));
    assertEquals(0, refused.status());
    assertTrue((System.nanoTime() - third) / 1_000_000 < 500, "one connection busy, one request waiting: the third"
        + " fails at once: " + refused.failure());
    OutboundResult timedOut = await(first);
    assertEquals(0, timedOut.status());
    assertTrue(timedOut.failure().contains("no answer within 1500 ms"), timedOut.failure());
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis >= 1450 && millis < 4000, "ended at its timeout: " + millis);
    assertEquals(0, await(second).status(), "the waiting one's time counts from its start too");
    await(out.close());
  }

  @Test
  void anAnswersBodyIsGivenBackWithinItsBoundAndItsTime() throws Exception {
    OutboundHttp out = new OutboundHttp(vertx, EventLoops.newEventLoopContext(vertx), new OutboundSettings(1000, 5000, 2, 10, true), false);
    String base = "http://127.0.0.1:" + port;
    OutboundResult answered = await(out.post(new OutboundRequest(base + "/answer", new java.util.HashMap<>(), "{}",
        0, 1_000)));
    assertEquals(200, answered.status());
    assertEquals("{\"errorType\": \"E\"}", answered.body());
    assertEquals("Unhandled", answered.functionError());
    OutboundResult announced = await(out.post(new OutboundRequest(base + "/announced", new java.util.HashMap<>(), "{}",
        0, 1_000)));
    assertTrue(announced.tooLarge(), "a Content-Length past the bound is not read");
    OutboundResult streamed = await(out.post(new OutboundRequest(base + "/big", new java.util.HashMap<>(), "{}",
        0, 1_000)));
    assertTrue(streamed.tooLarge(), "a chunked body past the bound is cut off");
    long start = System.nanoTime();
    OutboundResult slow = await(out.post(new OutboundRequest(base + "/slow-body", new java.util.HashMap<>(), "{}",
        700, 1_000)));
    assertTrue(slow.timedOut(), "the request's own time covers its body: " + slow);
    assertTrue((System.nanoTime() - start) / 1_000_000 < 2_500);
    assertEquals(201, await(out.post(new OutboundRequest(base + "/ok", new java.util.HashMap<>(), "{}", 0, 1_000)))
        .status(), "the client goes on");
    await(out.close());
  }

  @Test
  void privateAddressesAreRefusedWhenNotAllowed() throws Exception {
    int before = seen.size();
    OutboundHttp out = new OutboundHttp(vertx, EventLoops.newEventLoopContext(vertx), new OutboundSettings(1000, 2000, 2, 10, false));
    OutboundResult r = post(out, "/ok");
    assertEquals(0, r.status());
    assertTrue(r.notAllowed(), r.failure());
    assertTrue(r.failure().contains("non-public address"), r.failure());
    OutboundResult named = await(out.post(new OutboundRequest("http://localhost:" + port + "/ok",
        new java.util.HashMap<>(), "x")));
    assertTrue(named.failure().contains("non-public address"), named.failure());
    assertEquals(before, seen.size(), "nothing reached the server");
    await(out.close());
  }
}
