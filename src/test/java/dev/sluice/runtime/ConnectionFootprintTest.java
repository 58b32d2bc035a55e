package dev.sluice.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConnectionFootprintTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void theOutboundQueueOfANewConnectionIsSwappedAndAnswersStillArriveWhoeverWritesThem() throws Exception {
    assertNull(ConnectionFootprint.unavailableReason(), "the swap must apply on the Vert.x this build ships");
    List<Object> queues = new CopyOnWriteArrayList<>();
    List<Boolean> shrunk = new CopyOnWriteArrayList<>();
    String big = "y".repeat(2_000_000); // beyond the socket's buffers: the write waits for writability
    HttpServer server = vertx.createHttpServer()
        .connectionHandler(conn -> {
          shrunk.add(ConnectionFootprint.shrink(conn));
          queues.add(queueOf(conn));
        })
        .requestHandler(req -> {
          if (req.path().equals("/from-another-thread")) {
            // written from a thread that is not the connection's loop: through the outbound queue
            new Thread(() -> req.response().end("answer " + req.getParam("n"))).start();
          } else {
            req.response().end(big);
          }
        });
    int port = server.listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS).actualPort();
    HttpClient client = vertx.createHttpClient();
    List<Future<String>> answers = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      answers.add(get(client, port, "/from-another-thread?n=" + i));
    }
    answers.add(get(client, port, "/big"));
    Future.all(answers).await(30, TimeUnit.SECONDS);
    for (int i = 0; i < 50; i++) {
      assertEquals("answer " + i, answers.get(i).result());
    }
    assertEquals(big, answers.get(50).result());
    assertTrue(!shrunk.isEmpty() && shrunk.stream().allMatch(b -> b), "every connection swapped: " + shrunk);
    assertTrue(queues.stream().allMatch(q -> q instanceof ConcurrentLinkedQueue), "queues: " + queues);
  }

  private static Future<String> get(HttpClient client, int port, String path) {
    return client.request(HttpMethod.GET, port, "127.0.0.1", path)
        .compose(r -> r.send().compose(HttpClientResponse::body)).map(Buffer::toString);
  }

  private static Object queueOf(Object connection) {
    try {
      Object outbound = field("io.vertx.core.net.impl.VertxConnection", "outboundMessageQueue").get(connection);
      Object passing = field("io.vertx.core.internal.concurrent.OutboundMessageQueue", "mqp").get(outbound);
      return field("io.vertx.core.streams.impl.MessagePassingQueue", "queue").get(passing);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static Field field(String owner, String name) throws ReflectiveOperationException {
    Field f = Class.forName(owner).getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }
}
