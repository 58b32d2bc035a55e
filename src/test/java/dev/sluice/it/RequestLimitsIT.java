package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Memory an attacker can make the server hold: a body is refused before it is read when its
 * declared length is over what its action allows, when the server's budget of request bytes is
 * spent, or (with credentials) when its headers already fail authentication; a client waiting on
 * {@code Expect: 100-continue} is then never asked for the body. Whatever the refusal, the budget
 * is given back.
 */
class RequestLimitsIT {
  /** Room for two 3 MiB bodies at once, not three. */
  static final long BUDGET = 7L << 20;
  static final int BATCH_BODY = 3 << 20;
  static TestServer open;
  static TestServer signed;

  @BeforeAll
  static void start() {
    open = TestServer.start(Map.of("SLUICE_HTTP_MAX_INFLIGHT_BODY_BYTES", Long.toString(BUDGET)));
    signed = TestServer.start(Map.of("SLUICE_CREDENTIALS", "AKIDSLUICE:s3cret", "SLUICE_MANAGEMENT_TOKEN", "t0k"));
  }

  @AfterAll
  static void stop() throws Exception {
    open.close();
    signed.close();
  }

  static int port(TestServer s) {
    return s.sluice.port();
  }

  @Test
  void aBodyLargerThanItsActionAllowsIsRefusedBeforeItIsSent() throws Exception {
    for (String action : List.of("ListQueues", "DeleteMessageBatch", "SetQueueAttributes")) {
      try (RawHttp c = new RawHttp(port(open))) {
        c.send(RawHttp.jsonHead(port(open), action, 1 << 20, "Expect: 100-continue"));
        RawHttp.Response r = c.read(5_000);
        assertEquals(400, r.status(), action + ": " + r.head() + r.body());
        assertTrue(r.body().contains("larger than the 262144 bytes"), r.body());
        assertTrue(c.closedWithin(5_000), "the connection closes instead of reading the body");
      }
    }
    try (RawHttp c = new RawHttp(port(open))) {
      c.send(RawHttp.jsonHead(port(open), "SendMessageBatch", 100L << 20, "Expect: 100-continue"));
      RawHttp.Response r = c.read(5_000);
      assertEquals(400, r.status(), "100 MiB is more than any SQS request: " + r.head());
      assertTrue(c.closedWithin(5_000));
    }
  }

  @Test
  void aSendWithinTheLimitIsAskedForItsBody() throws Exception {
    String body = "{\"QueueName\":\"limits-ok\"}";
    try (RawHttp c = new RawHttp(port(open))) {
      c.send(RawHttp.jsonHead(port(open), "CreateQueue", body.length(), "Expect: 100-continue"));
      assertEquals(100, c.read(5_000).status(), "the server asks for the body once it will read it");
      c.send(body);
      assertEquals(200, c.read(5_000).status());
    }
  }

  @Test
  void whenTheServersRequestBytesAreSpentNewBodiesAreThrottledUnreadAndTheBudgetComesBack() throws Exception {
    List<RawHttp> slow = new ArrayList<>();
    try {
      // Two clients start 3 MiB batches and stall: 6 MiB of the 7 MiB budget are held for them.
      for (int i = 0; i < 2; i++) {
        RawHttp c = new RawHttp(port(open));
        slow.add(c);
        c.send(RawHttp.jsonHead(port(open), "SendMessageBatch", BATCH_BODY)).send("{\"QueueUrl\":");
      }
      awaitRequestBytes(2L * BATCH_BODY);
      try (RawHttp third = new RawHttp(port(open))) {
        third.send(RawHttp.jsonHead(port(open), "SendMessageBatch", BATCH_BODY, "Expect: 100-continue"));
        RawHttp.Response r = third.read(5_000);
        assertEquals(403, r.status(), r.head() + r.body());
        assertTrue(r.body().contains("RequestThrottled"), r.body());
        assertTrue(third.closedWithin(5_000));
      }
      try (SqsClient sqs = open.clientWithoutRetries()) {
        sqs.createQueue(b -> b.queueName("small-requests-still-pass"));
      }
    } finally {
      for (RawHttp c : slow) {
        c.close();
      }
    }
    awaitRequestBytes(0);
    try (SqsClient sqs = open.clientWithoutRetries()) {
      String url = sqs.createQueue(b -> b.queueName("after-the-stall")).queueUrl();
      sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
          SendMessageBatchRequestEntry.builder().id("1").messageBody("x".repeat(200_000)).build(),
          SendMessageBatchRequestEntry.builder().id("2").messageBody("y".repeat(200_000)).build()));
    }
  }

  @Test
  void withCredentialsAnUnsignedOrUnknownRequestIsRefusedFromItsHeadersAlone() throws Exception {
    try (RawHttp c = new RawHttp(port(signed))) {
      c.send(RawHttp.jsonHead(port(signed), "SendMessageBatch", BATCH_BODY, "Expect: 100-continue"));
      RawHttp.Response r = c.read(5_000);
      assertEquals(403, r.status(), r.head());
      assertEquals("MissingAuthenticationToken;Sender", r.header("x-amzn-query-error"));
      assertTrue(c.closedWithin(5_000));
    }
    try (RawHttp c = new RawHttp(port(signed))) {
      c.send(RawHttp.jsonHead(port(signed), "SendMessageBatch", BATCH_BODY, "X-Amz-Date: 20261125T100000Z",
          "Authorization: AWS4-HMAC-SHA256 Credential=AKIDNOBODY/20261125/us-east-1/sqs/aws4_request,"
              + " SignedHeaders=host;x-amz-date;x-amz-target, Signature=00"));
      RawHttp.Response r = c.read(5_000);
      assertEquals(403, r.status(), r.head());
      assertEquals("InvalidClientTokenId;Sender", r.header("x-amzn-query-error"));
    }
    try (SqsClient sqs = signed.client("AKIDSLUICE", "s3cret")) {
      sqs.createQueue(b -> b.queueName("signed-still-works"));
    }
  }

  static void awaitRequestBytes(long expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long used = -1;
    while (System.nanoTime() < deadline) {
      used = open.sluice.requestBytesInUse();
      if (used == expected) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("expected " + expected + " request bytes held, found " + used);
  }
}
