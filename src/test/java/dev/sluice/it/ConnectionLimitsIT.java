package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Connections an attacker can hold: a head sent one byte at a time (slowloris), a body that never
 * finishes, a connection left idle, and more connections than the limit. Each is closed in time,
 * while a parked long poll, which sends nothing for longer than the idle timeout, is answered.
 */
@Isolated
class ConnectionLimitsIT {
  static final int HEADER_MS = 600;
  static final int BODY_MS = 800;
  static final int IDLE_MS = 1000;
  static final int MAX_CONNECTIONS = 6;
  static TestServer server;
  static int port;

  @BeforeAll
  static void start() {
    server = TestServer.start(Map.of("SLUICE_HTTP_HEADER_TIMEOUT_MILLIS", Integer.toString(HEADER_MS),
        "SLUICE_HTTP_BODY_TIMEOUT_MILLIS", Integer.toString(BODY_MS),
        "SLUICE_HTTP_IDLE_TIMEOUT_MILLIS", Integer.toString(IDLE_MS),
        "SLUICE_HTTP_MAX_CONNECTIONS", Integer.toString(MAX_CONNECTIONS),
        "SLUICE_HTTP_INSTANCES", "2"));
    port = server.sluice.port();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void aHeadTrickledByteByByteIsCutOff() throws Exception {
    try (RawHttp c = new RawHttp(port)) {
      long start = System.nanoTime();
      String head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "a".repeat(100);
      boolean closed = false;
      for (char ch : head.toCharArray()) {
        try {
          c.send(String.valueOf(ch));
        } catch (java.io.IOException reset) {
          closed = true;
          break;
        }
        if (c.closedWithin(50)) {
          closed = true;
          break;
        }
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(closed, "still open after trickling the whole head");
      assertTrue(millis < HEADER_MS + 2_000, "closed after " + millis + " ms");
    }
  }

  @Test
  void aConnectionThatSendsNothingIsClosed() throws Exception {
    try (RawHttp c = new RawHttp(port)) {
      assertTrue(c.closedWithin(HEADER_MS + 2_000));
    }
  }

  @Test
  void aBodyThatNeverFinishesIsCutOff() throws Exception {
    try (RawHttp c = new RawHttp(port)) {
      c.send(RawHttp.jsonHead(port, "CreateQueue", 100)).send("{\"QueueName\":");
      long start = System.nanoTime();
      assertTrue(c.closedWithin(BODY_MS + 2_000));
      assertTrue((System.nanoTime() - start) / 1_000_000 >= BODY_MS - 300, "not before the body timeout");
    }
  }

  @Test
  void anIdleKeptAliveConnectionIsClosedButAParkedLongPollIsNot() throws Exception {
    String body = "{\"QueueName\":\"idle-check\"}";
    try (RawHttp c = new RawHttp(port)) {
      c.send(RawHttp.jsonHead(port, "CreateQueue", body.length())).send(body);
      assertEquals(200, c.read(5_000).status());
      assertFalse(c.closedWithin(IDLE_MS / 2), "kept alive for a while");
      assertTrue(c.closedWithin(IDLE_MS + 2_000), "then closed");
    }
    try (SqsClient sqs = server.clientWithoutRetries()) {
      String url = sqs.createQueue(b -> b.queueName("idle-long-poll")).queueUrl();
      long start = System.nanoTime();
      assertEquals(0, sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(3)).messages().size());
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis >= 2_900, "the poll waited its 3 s, three idle timeouts, and was answered: " + millis);
    }
  }

  @Test
  void connectionsBeyondTheLimitAreClosedAtOnceAndTheLogSaysSo() throws Exception {
    List<RawHttp> held = new ArrayList<>();
    try (LogCapture log = LogCapture.of("dev.sluice.http.ConnectionGuard")) {
      // Keep MAX_CONNECTIONS connections busy with requests whose bodies are still coming.
      for (int i = 0; i < MAX_CONNECTIONS; i++) {
        RawHttp c = new RawHttp(port);
        held.add(c);
        c.send(RawHttp.jsonHead(port, "CreateQueue", 100)).send("{");
      }
      Thread.sleep(200);
      try (RawHttp over = new RawHttp(port)) {
        assertTrue(over.closedWithin(2_000), "one more connection is closed at once");
      }
      assertTrue(log.records().stream().anyMatch(r -> r.getMessage().contains("http.maxConnections")), "and logged");
    } finally {
      for (RawHttp c : held) {
        c.close();
      }
    }
    Thread.sleep(300);
    try (SqsClient sqs = server.clientWithoutRetries()) {
      sqs.createQueue(b -> b.queueName("after-the-limit"));
    }
  }
}
