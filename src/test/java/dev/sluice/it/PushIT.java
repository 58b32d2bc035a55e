package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Push delivery through both bridges with a raw client (the SockJS bridge's WebSocket and the TCP
 * bridge), against queues an AWS SDK client sends to and long-polls.
 */
class PushIT {
  static TestServer server;
  static SqsClient sqs;
  static int tcpPort;

  @BeforeAll
  static void start() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      tcpPort = s.getLocalPort();
    }
    server = TestServer.start(Map.of("SLUICE_PUSH_TCP_PORT", Integer.toString(tcpPort)));
    sqs = server.client();
  }

  @AfterAll
  static void stop() throws Exception {
    sqs.close();
    server.close();
  }

  static BridgeClient ws() throws Exception {
    return BridgeClient.webSocket(server.sluice.port(), "/eventbus");
  }

  static String queue(String name) {
    return sqs.createQueue(b -> b.queueName(name)).queueUrl();
  }

  /** Subscribes and registers on the delivery address; answers the subscription reply. */
  static JsonObject subscribe(BridgeClient c, String queueUrl, int prefetch, Integer visibility) throws Exception {
    JsonObject req = new JsonObject().put("queueUrl", queueUrl).put("prefetch", prefetch);
    if (visibility != null) {
      req.put("visibilityTimeout", visibility);
    }
    JsonObject reply = c.request("sluice.subscribe", req);
    assertEquals("rec".equals(reply.getString("type")) || "message".equals(reply.getString("type")), true,
        "subscribe answered " + reply);
    JsonObject sub = reply.getJsonObject("body");
    c.register(sub.getString("address"));
    return sub;
  }

  static JsonObject ok(JsonObject reply) {
    assertTrue("rec".equals(reply.getString("type")) || "message".equals(reply.getString("type")), "answer: " + reply);
    return reply.getJsonObject("body");
  }

  /** A demand subscription ({@code "credit": "demand"}), registered on its address. */
  static JsonObject subscribeDemand(BridgeClient c, String url, int prefetch) throws Exception {
    JsonObject sub = ok(c.request("sluice.subscribe", new JsonObject().put("queueUrl", url).put("prefetch", prefetch)
        .put("visibilityTimeout", 60).put("credit", "demand")));
    assertEquals("demand", sub.getString("credit"));
    c.register(sub.getString("address"));
    return sub;
  }

  static JsonObject credit(BridgeClient c, JsonObject sub, Object credits) throws Exception {
    return c.request("sluice.credit", new JsonObject().put("subscription", sub.getString("subscription"))
        .put("credits", credits));
  }

  /** The next {@code n} messages pushed to {@code sub}. */
  static List<JsonObject> take(BridgeClient c, JsonObject sub, int n) throws Exception {
    List<JsonObject> got = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      JsonObject f = c.pushed(sub.getString("address"), 5000);
      assertNotNull(f, "pushed " + i + " of " + n);
      got.add(f.getJsonObject("body"));
    }
    return got;
  }

  static void ack(BridgeClient c, JsonObject sub, JsonObject message) throws Exception {
    ok(c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
        .put("receiptHandle", message.getString("receiptHandle"))));
  }

  static void assertRefused(String code, JsonObject reply) {
    assertEquals("err", reply.getString("type"), reply.encode());
    assertTrue(reply.getString("message").startsWith(code + ": "), reply.encode());
  }

  static int notVisible(String url) {
    return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributesAsStrings()
        .get("ApproximateNumberOfMessagesNotVisible"));
  }

  static void send(String url, int messages) {
    for (int i = 0; i < messages; i++) {
      int n = i;
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("m" + n));
    }
  }

  static int visible(String url) {
    return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributesAsStrings().get("ApproximateNumberOfMessages"));
  }

  @Test
  void aSentMessageIsPushedWithWhatAReceiveWouldCarry() throws Exception {
    String url = queue("push-basic");
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribe(c, url, 5, 30);
      assertEquals("auto", sub.getString("credit"), "pushed as slots free up, as by default");
      String id = sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello push")
          .messageAttributes(Map.of("kind", MessageAttributeValue.builder().dataType("String").stringValue("greeting")
              .build()))).messageId();
      JsonObject m = c.pushed(sub.getString("address"), 5000).getJsonObject("body");
      assertEquals("message", m.getString("type"));
      assertEquals(id, m.getString("messageId"));
      assertEquals("hello push", m.getString("body"));
      assertEquals(1, m.getInteger("receiveCount"));
      assertEquals("greeting", m.getJsonObject("messageAttributes").getJsonObject("kind").getString("stringValue"));
      assertNotNull(m.getString("receiptHandle"));
      assertEquals(sub.getString("subscription"), m.getString("subscription"));
      ok(c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("receiptHandle", m.getString("receiptHandle"))));
      assertEquals(0, visible(url));
      assertEquals("0", sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
          QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributesAsStrings()
          .get("ApproximateNumberOfMessagesNotVisible"), "ack deleted it");
    }
  }

  @Test
  void aSubscriberGetsNoMoreThanItsCreditsAndEachAckFreesOne() throws Exception {
    String url = queue("push-credits");
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribe(c, url, 3, 60);
      String address = sub.getString("address");
      for (int i = 0; i < 10; i++) {
        int n = i;
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("m" + n));
      }
      List<JsonObject> got = new ArrayList<>();
      for (JsonObject f; (f = c.pushed(address, 1000)) != null; ) {
        got.add(f.getJsonObject("body"));
      }
      assertEquals(3, got.size(), "prefetch 3");
      ok(c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("receiptHandle", got.get(0).getString("receiptHandle"))));
      assertNotNull(c.pushed(address, 5000), "one credit freed, one more message");
      assertNull(c.pushed(address, 500), "and no more");
    }
  }

  @Test
  void nackMakesAMessageVisibleAtOnceAndExtendKeepsItHidden() throws Exception {
    String url = queue("push-nack");
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribe(c, url, 1, 2);
      String subId = sub.getString("subscription");
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("n1"));
      JsonObject m = c.pushed(sub.getString("address"), 5000).getJsonObject("body");
      ok(c.request("sluice.extend", new JsonObject().put("subscription", subId)
          .put("receiptHandle", m.getString("receiptHandle")).put("visibilityTimeout", 60)));
      Thread.sleep(2500); // past the subscription's 2 s visibility: extended, so still hidden
      assertEquals(0, sqs.receiveMessage(b -> b.queueUrl(url)).messages().size());
      ok(c.request("sluice.unsubscribe", new JsonObject().put("subscription", subId)));
      // unsubscribing returned it; take it over HTTP
      List<Message> back = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5)).messages();
      assertEquals(1, back.size());
      assertEquals("n1", back.get(0).body());
    }
    String second = queue("push-nack-2");
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribe(c, second, 1, 60);
      sqs.sendMessage(b -> b.queueUrl(second).messageBody("n2"));
      JsonObject m = c.pushed(sub.getString("address"), 5000).getJsonObject("body");
      ok(c.request("sluice.nack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("receiptHandle", m.getString("receiptHandle"))));
      // visible again at once, and the credit is back: it comes round a second time
      JsonObject again = c.pushed(sub.getString("address"), 5000).getJsonObject("body");
      assertEquals("n2", again.getString("body"));
      assertEquals(2, again.getInteger("receiveCount"));
    }
  }

  @Test
  void maxReceiveCountMovesANackedMessageToTheDeadLetterQueue() throws Exception {
    String dlq = queue("push-dlq");
    String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlq).attributeNamesWithStrings("QueueArn"))
        .attributesAsStrings().get("QueueArn");
    String url = sqs.createQueue(b -> b.queueName("push-dlq-source").attributesWithStrings(Map.of("RedrivePolicy",
        "{\"maxReceiveCount\":\"1\",\"deadLetterTargetArn\":\"" + dlqArn + "\"}"))).queueUrl();
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribe(c, url, 1, 30);
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("poison"));
      JsonObject m = c.pushed(sub.getString("address"), 5000).getJsonObject("body");
      ok(c.request("sluice.nack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("receiptHandle", m.getString("receiptHandle"))));
      assertNull(c.pushed(sub.getString("address"), 1000), "its second receive moved it instead");
    }
    assertEquals(List.of("poison"), sqs.receiveMessage(b -> b.queueUrl(dlq).waitTimeSeconds(2)).messages().stream()
        .map(Message::body).toList());
  }

  @Test
  void unregisteringFromTheDeliveryAddressEndsTheSubscription() throws Exception {
    String url = queue("push-unregister");
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribe(c, url, 5, 300);
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("u1"));
      assertNotNull(c.pushed(sub.getString("address"), 5000));
      c.frame(new JsonObject().put("type", "unregister").put("address", sub.getString("address")));
      List<Message> back = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5)).messages();
      assertEquals(List.of("u1"), back.stream().map(Message::body).toList(), "visible again at once");
      JsonObject gone = c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("receiptHandle", "x"));
      assertTrue(gone.getString("message").startsWith("ResourceNotFoundException: "), gone.encode());
    }
  }

  @Test
  void closingTheSocketReturnsItsMessagesAtOnce() throws Exception {
    String url = queue("push-close");
    BridgeClient c = ws();
    JsonObject sub = subscribe(c, url, 5, 300);
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("c1"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("c2"));
    assertNotNull(c.pushed(sub.getString("address"), 5000));
    assertNotNull(c.pushed(sub.getString("address"), 5000));
    c.close();
    Set<String> bodies = new HashSet<>();
    long end = System.currentTimeMillis() + 5000;
    while (bodies.size() < 2 && System.currentTimeMillis() < end) {
      sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)).messages()
          .forEach(m -> bodies.add(m.body()));
    }
    assertEquals(Set.of("c1", "c2"), bodies, "visible again well before their 300 s visibility");
  }

  @Test
  void pushSubscribersAndHttpLongPollersShareAQueueAndEachMessageIsDeliveredOnce() throws Exception {
    String url = queue("push-fair");
    int total = 1000;
    java.util.concurrent.ConcurrentHashMap<String, Integer> deliveries = new java.util.concurrent.ConcurrentHashMap<>();
    java.util.concurrent.atomic.AtomicInteger byPush = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger byHttp = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    List<Thread> consumers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Thread t = new Thread(() -> {
        while (!done.get()) {
          for (Message m : sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
              .messages()) {
            deliveries.merge(m.body(), 1, Integer::sum);
            byHttp.incrementAndGet();
            sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
          }
        }
      });
      t.start();
      consumers.add(t);
    }
    try (BridgeClient a = ws(); BridgeClient b = ws()) {
      List<BridgeClient> clients = List.of(a, b);
      List<JsonObject> subs = new ArrayList<>();
      for (BridgeClient c : clients) {
        subs.add(subscribe(c, url, 10, 60));
      }
      Thread producer = new Thread(() -> {
        for (int i = 0; i < total; i += 10) {
          int from = i;
          sqs.sendMessageBatch(r -> r.queueUrl(url).entries(java.util.stream.IntStream.range(from, from + 10)
              .mapToObj(n -> software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry.builder()
                  .id("e" + n).messageBody("m" + n).build()).toList()));
        }
      });
      producer.start();
      long end = System.currentTimeMillis() + 60_000;
      while (deliveries.size() < total && System.currentTimeMillis() < end) {
        for (int i = 0; i < clients.size(); i++) {
          JsonObject f = clients.get(i).pushed(subs.get(i).getString("address"), 20);
          if (f != null) {
            JsonObject m = f.getJsonObject("body");
            deliveries.merge(m.getString("body"), 1, Integer::sum);
            byPush.incrementAndGet();
            ok(clients.get(i).request("sluice.ack", new JsonObject().put("subscription", subs.get(i).getString("subscription"))
                .put("receiptHandle", m.getString("receiptHandle"))));
          }
        }
      }
      producer.join();
    } finally {
      done.set(true);
      for (Thread t : consumers) {
        t.join();
      }
    }
    assertEquals(total, deliveries.size(), "every message delivered");
    assertTrue(deliveries.values().stream().allMatch(n -> n == 1), "and none twice");
    assertTrue(byPush.get() >= total / 10 && byHttp.get() >= total / 10,
        "both kinds of consumer got a share: push " + byPush + ", HTTP " + byHttp);
  }

  @Test
  void fifoOrderHoldsForPush() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("push-order.fifo").attributesWithStrings(Map.of("FifoQueue", "true",
        "ContentBasedDeduplication", "true"))).queueUrl();
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribe(c, url, 10, 60);
      for (int i = 0; i < 50; i++) {
        int n = i;
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("f" + n).messageGroupId("g"));
      }
      for (int i = 0; i < 50; i++) {
        JsonObject m = c.pushed(sub.getString("address"), 5000).getJsonObject("body");
        assertEquals("f" + i, m.getString("body"));
        ok(c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
            .put("receiptHandle", m.getString("receiptHandle"))));
      }
    }
  }

  @Test
  void errorsComeBackAsSqsErrorCodes() throws Exception {
    String url = queue("push-errors");
    try (BridgeClient c = ws()) {
      JsonObject missing = c.request("sluice.subscribe", new JsonObject().put("queueName", "no-such-queue"));
      assertEquals("err", missing.getString("type"));
      assertTrue(missing.getString("message").startsWith("QueueDoesNotExist: "), missing.encode());
      JsonObject sub = subscribe(c, url, 1, 30);
      JsonObject bad = c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("receiptHandle", "not-a-handle"));
      assertTrue(bad.getString("message").startsWith("ReceiptHandleIsInvalid: "), bad.encode());
      JsonObject prefetch = c.request("sluice.subscribe", new JsonObject().put("queueUrl", url).put("prefetch", 0));
      assertTrue(prefetch.getString("message").startsWith("InvalidParameterValueException: "), prefetch.encode());
      JsonObject zero = c.request("sluice.subscribe", new JsonObject().put("queueUrl", url).put("visibilityTimeout", 0));
      assertTrue(zero.getString("message").startsWith("InvalidParameterValueException: "), zero.encode());
      for (int i = 1; i < 100; i++) {
        ok(c.request("sluice.subscribe", new JsonObject().put("queueUrl", url)));
      }
      JsonObject tooMany = c.request("sluice.subscribe", new JsonObject().put("queueUrl", url));
      assertTrue(tooMany.getString("message").startsWith("OverLimit: "), tooMany.encode());
    }
  }

  @Test
  void onlyTheProtocolsAddressesAreAllowedAndNobodyElsesDeliveries() throws Exception {
    String url = queue("push-guard");
    try (BridgeClient owner = ws(); BridgeClient thief = ws()) {
      JsonObject sub = subscribe(owner, url, 5, 30);
      owner.pushed(sub.getString("address"), 200); // nothing yet
      thief.register(sub.getString("address"));
      JsonObject refused = thief.next(f -> "err".equals(f.getString("type")), 5000);
      assertNotNull(refused, "registering on another subscriber's address is refused");
      assertEquals("rejected", refused.getString("body"));
      thief.register("anything.else");
      assertNotNull(thief.next(f -> "err".equals(f.getString("type")), 5000));
      JsonObject arbitrary = thief.request("some.internal.address", new JsonObject());
      assertEquals("err", arbitrary.getString("type"));
      thief.frame(new JsonObject().put("type", "publish").put("address", "sluice.ack").put("body", new JsonObject()));
      assertNotNull(thief.next(f -> "err".equals(f.getString("type")), 5000), "publishing is refused");
      // someone else's subscription cannot be acked, unsubscribed or extended
      JsonObject foreign = thief.request("sluice.unsubscribe", new JsonObject().put("subscription", sub.getString("subscription")));
      assertTrue(foreign.getString("message").startsWith("ResourceNotFoundException: "), foreign.encode());
      // malformed and oversized frames get an error and the connection survives
      thief.sendRaw("{not json");
      assertNotNull(thief.next(f -> "err".equals(f.getString("type")), 5000));
      JsonObject huge = thief.request("sluice.subscribe", new JsonObject().put("queueUrl", url).put("pad", "x".repeat(100_000)));
      assertEquals("err", huge.getString("type"));
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("only for the owner"));
      assertNotNull(owner.pushed(sub.getString("address"), 5000));
      assertNull(thief.pushed(sub.getString("address"), 500));
      JsonObject stillWorks = thief.request("sluice.subscribe", new JsonObject().put("queueUrl", url));
      assertNotNull(ok(stillWorks).getString("address"));
    }
  }

  @Test
  void theTcpBridgeSpeaksTheSameProtocol() throws Exception {
    String url = queue("push-tcp");
    try (BridgeClient c = BridgeClient.tcp(tcpPort)) {
      JsonObject sub = subscribe(c, url, 2, 30);
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("over tcp"));
      JsonObject m = c.pushed(sub.getString("address"), 5000).getJsonObject("body");
      assertEquals("over tcp", m.getString("body"));
      ok(c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("receiptHandle", m.getString("receiptHandle"))));
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("returned on close"));
      assertNotNull(c.pushed(sub.getString("address"), 5000));
    }
    List<Message> back = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5)).messages();
    assertEquals(List.of("returned on close"), back.stream().map(Message::body).toList(),
        "a closed TCP connection returns its messages at once");
  }

  // Demand credit (push.md, "Credits"): pushed only what sluice.credit granted.

  @Test
  void aDemandSubscriptionIsPushedOnlyWhatItsCreditsGrant() throws Exception {
    String url = queue("push-demand");
    send(url, 5);
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribeDemand(c, url, 4);
      assertNull(c.pushed(sub.getString("address"), 500), "registering pushes nothing: the grant is 0");
      assertEquals(0, notVisible(url));

      assertEquals(new JsonObject(), ok(credit(c, sub, 3)));
      List<JsonObject> three = take(c, sub, 3);
      ack(c, sub, three.get(0));
      assertNull(c.pushed(sub.getString("address"), 300), "3 credits, 3 of 5; the ack freed a slot, granted nothing");
      assertEquals(2, notVisible(url));

      // Fire-and-forget, as a client tops up: no reply address, no answer, and it counts.
      c.frame(new JsonObject().put("type", "send").put("address", "sluice.credit")
          .put("body", new JsonObject().put("subscription", sub.getString("subscription")).put("credits", 1)));
      assertNotNull(c.pushed(sub.getString("address"), 5000), "a credit sent without a reply address");
      assertEquals(3, notVisible(url));
    }
  }

  @Test
  void aGrantPastPrefetchIsClampedAndPrefetchBoundsWhatIsUnacknowledged() throws Exception {
    String url = queue("push-demand-clamped");
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribeDemand(c, url, 3);
      for (int i = 0; i < 3; i++) {
        ok(credit(c, sub, 3)); // 9 granted while the queue is empty: clamped to 3, not refused
      }
      send(url, 10);
      for (JsonObject m : take(c, sub, 3)) {
        ack(c, sub, m);
      }
      assertNull(c.pushed(sub.getString("address"), 300), "the grant was capped at the prefetch, and is spent");

      ok(credit(c, sub, 3));
      List<JsonObject> second = take(c, sub, 3);
      ok(credit(c, sub, 3)); // granted, but every slot is held
      assertNull(c.pushed(sub.getString("address"), 300), "never more than prefetch unacknowledged");
      assertEquals(3, notVisible(url));
      ack(c, sub, second.get(0));
      assertNotNull(c.pushed(sub.getString("address"), 5000), "a freed slot, and credit left: one more");
      assertEquals(3, notVisible(url));
    }
  }

  @Test
  void badCreditsAndCreditForWhatIsNotADemandSubscriptionAreRefused() throws Exception {
    String url = queue("push-demand-refused");
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribeDemand(c, url, 2);
      assertRefused("InvalidParameterValueException", credit(c, sub, 0));
      assertRefused("InvalidParameterValueException", credit(c, sub, 3));
      assertRefused("InvalidParameterValueException", credit(c, sub, 1.5));
      assertRefused("InvalidParameterValueException", credit(c, sub, "1"));
      assertRefused("MissingRequiredParameterException", c.request("sluice.credit",
          new JsonObject().put("subscription", sub.getString("subscription"))));
      assertRefused("ResourceNotFoundException", c.request("sluice.credit",
          new JsonObject().put("subscription", "0".repeat(32)).put("credits", 1)));

      JsonObject auto = ok(c.request("sluice.subscribe", new JsonObject().put("queueUrl", url)));
      JsonObject notDemand = credit(c, auto, 1);
      assertRefused("InvalidParameterValueException", notDemand);
      assertTrue(notDemand.getString("message").contains("not a demand subscription"), notDemand.encode());
      assertRefused("InvalidParameterValueException", c.request("sluice.subscribe",
          new JsonObject().put("queueUrl", url).put("credit", "eager")));

      // A refused credit sent without a reply address gets no answer at all: the next frame is the
      // answer to the request after it.
      c.frame(new JsonObject().put("type", "send").put("address", "sluice.credit")
          .put("body", new JsonObject().put("subscription", sub.getString("subscription")).put("credits", 0)));
      assertEquals(new JsonObject(), ok(credit(c, sub, 1)));
      assertTrue(c.frames.isEmpty(), "nothing else came: " + c.frames);
    }
  }
}
