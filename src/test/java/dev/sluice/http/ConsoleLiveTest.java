package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.console.ConsoleStreams;
import dev.sluice.console.HistorySampler;
import dev.sluice.engine.QueueSample;
import dev.sluice.engine.TopicSample;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The console's live routes on a bare router and a real HTTP server, read by a real HTTP client:
 * the overview, topics and history as JSON, their errors, and the event stream with its bound.
 */
// A stream that never ends would block its reader: the timeout makes that a failure.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConsoleLiveTest {
  static final String ACCOUNT = "000000000000";
  final Vertx vertx = Vertx.vertx();
  final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  volatile List<QueueSample> queues = List.of(
      new QueueSample(new QueueKey(ACCOUNT, "us-east-1", "orders"), 1, null, 2, 1, 0, 500, 4, 2, 1));
  HistorySampler sampler;
  ConsoleStreams streams;
  HttpServer server;

  @BeforeEach
  void start() throws Exception {
    sampler = new HistorySampler(vertx, new HistorySampler.Source() {
      @Override
      public Future<List<QueueSample>> queues() {
        return Future.succeededFuture(queues);
      }

      @Override
      public Future<List<TopicSample>> topics() {
        return Future.succeededFuture(List.of(new TopicSample(new TopicKey(ACCOUNT, "us-east-1", "news"), 3, 6, 0, 0)));
      }
    }, 50, 10, System::currentTimeMillis);
    streams = new ConsoleStreams(sampler, 1, 60_000);
    Router router = Router.router(vertx);
    // As ConsoleRoutes mounts them, less the guard (ConsoleApiIT's): the API's headers first.
    router.route(ConsoleApi.PREFIX + "*").handler(ConsoleHeaders::apiResponse);
    new ConsoleLive(sampler, streams, new Callers(""), ACCOUNT).addTo(new ConsoleApi()).mount(router);
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    sampler.start();
    eventually(() -> get("/console/api/queues").body().contains("orders"), "sampled");
  }

  @AfterEach
  void stop() throws Exception {
    streams.stop().await(5, TimeUnit.SECONDS);
    sampler.stop().await(5, TimeUnit.SECONDS);
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.actualPort() + path);
  }

  HttpResponse<String> get(String path) {
    try {
      return client.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static void eventually(BooleanSupplier condition, String what) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > until) {
        fail(what);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void theOverviewTopicsAndHistoryAnswerJson() {
    HttpResponse<String> overview = get("/console/api/queues?sort=visible&order=desc");
    assertEquals(200, overview.statusCode());
    assertEquals("no-store", overview.headers().firstValue("Cache-Control").orElse(null));
    assertTrue(overview.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    JsonObject row = new JsonObject(overview.body()).getJsonArray("rows").getJsonObject(0);
    assertEquals("http://127.0.0.1:" + server.actualPort() + "/000000000000/orders", row.getString("url"),
        "built from the Host the client used, as queue URLs are");
    assertEquals(2, row.getInteger("visible"));

    JsonObject topics = new JsonObject(get("/console/api/topics").body());
    assertEquals("news", topics.getJsonArray("rows").getJsonObject(0).getString("name"));

    HttpResponse<String> history = get("/console/api/queues/000000000000/us-east-1/orders/history");
    assertEquals(200, history.statusCode());
    assertEquals(true, new JsonObject(history.body()).getBoolean("kept"));
    HttpResponse<String> unknown = get("/console/api/queues/000000000000/us-east-1/nope/history");
    assertEquals("com.amazonaws.sqs#QueueDoesNotExist", new JsonObject(unknown.body()).getString("__type"));

    HttpResponse<String> bad = get("/console/api/queues?limit=501");
    assertEquals(400, bad.statusCode());
    assertTrue(new JsonObject(bad.body()).getString("__type").endsWith("#InvalidParameterValueException"), bad.body());
    assertEquals(400, get("/console/api/stream?view=queue&q=only-a-name").statusCode());
  }

  @Test
  void aStreamSendsItsSnapshotThenTicksHoldsItsSlotAndEndsAtStop() throws Exception {
    HttpResponse<Stream<String>> open = client.send(
        HttpRequest.newBuilder(uri("/console/api/stream?view=queue&q=000000000000/us-east-1/orders")).build(),
        HttpResponse.BodyHandlers.ofLines());
    assertEquals(200, open.statusCode());
    assertEquals("text/event-stream; charset=utf-8", open.headers().firstValue("Content-Type").orElse(null));
    Iterator<String> lines = open.body().iterator();
    assertEquals("event: snapshot", lines.next());
    assertTrue(lines.next().startsWith("data: {\"row\":{"));
    assertEquals("", lines.next());
    assertEquals("event: tick", lines.next());
    assertTrue(new JsonObject(lines.next().substring("data: ".length())).containsKey("point"));

    HttpResponse<String> refused = get("/console/api/stream");
    assertEquals(503, refused.statusCode());
    assertEquals("30", refused.headers().firstValue("Retry-After").orElse(null));
    assertEquals("com.amazon.coral.service#TooManyStreams", new JsonObject(refused.body()).getString("__type"));

    streams.stop().await(5, TimeUnit.SECONDS);
    while (lines.hasNext()) {
      lines.next(); // ends: the server ended the stream
    }
    assertEquals(0, streams.openStreams());
  }

  @Test
  void aClosedConnectionFreesItsSlotAndADeletedQueueIsGone() throws Exception {
    HttpResponse<Stream<String>> open = client.send(HttpRequest.newBuilder(uri("/console/api/stream")).build(),
        HttpResponse.BodyHandlers.ofLines());
    assertEquals("event: snapshot", open.body().iterator().next());
    assertEquals(1, streams.openStreams());
    open.body().close();
    eventually(() -> streams.openStreams() == 0, "the slot freed when the client went away");

    HttpResponse<Stream<String>> queue = client.send(
        HttpRequest.newBuilder(uri("/console/api/stream?view=queue&q=000000000000/us-east-1/orders")).build(),
        HttpResponse.BodyHandlers.ofLines());
    queues = List.of();
    List<String> events = queue.body().filter(l -> l.startsWith("event: ")).toList();
    assertEquals("event: gone", events.get(events.size() - 1), events.toString());
    eventually(() -> streams.openStreams() == 0, "ended after gone");
  }
}
