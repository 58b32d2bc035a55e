package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.client.ClientOptions;
import dev.sluice.client.SluiceClient;
import dev.sluice.client.SubscribeOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** A durable server stopped and started again on the same PostgreSQL: everything comes back. */
class DurableRestartIT extends DurableServerIT {

  @Test
  void queuesMessagesDeadlinesAndReceiptHandlesSurviveARestart() throws Exception {
    String inFlightHandle;
    String standardUrl;
    String fifoUrl;
    String firstF1Id;
    try (TestServer first = server(); SqsClient sqs = first.client()) {
      standardUrl = sqs.createQueue(b -> b.queueName("restart-orders").tags(Map.of("team", "payments"))
          .attributesWithStrings(Map.of("VisibilityTimeout", "45"))).queueUrl();
      fifoUrl = sqs.createQueue(b -> b.queueName("restart-orders.fifo")
          .attributesWithStrings(Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"))).queueUrl();
      for (String body : List.of("a", "b", "c")) {
        sqs.sendMessage(b -> b.queueUrl(standardUrl).messageBody(body));
      }
      for (String body : List.of("f1", "f2", "f3")) {
        sqs.sendMessage(b -> b.queueUrl(fifoUrl).messageBody(body).messageGroupId("g"));
      }
      firstF1Id = sqs.sendMessage(b -> b.queueUrl(fifoUrl).messageBody("f1").messageGroupId("g")).messageId();
      Message deleted = sqs.receiveMessage(b -> b.queueUrl(standardUrl)).messages().get(0);
      sqs.deleteMessage(b -> b.queueUrl(standardUrl).receiptHandle(deleted.receiptHandle()));
      Message inFlight = sqs.receiveMessage(b -> b.queueUrl(standardUrl).visibilityTimeout(600)).messages().get(0);
      inFlightHandle = inFlight.receiptHandle();
      Thread.sleep(300); // the receive and the delete are written behind
    }
    try (TestServer second = server(); SqsClient sqs = second.client()) {
      String url = second.queueUrl("restart-orders");
      Map<String, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(url)
          .attributeNames(QueueAttributeName.ALL)).attributesAsStrings();
      assertEquals("45", attributes.get("VisibilityTimeout"));
      assertEquals("1", attributes.get("ApproximateNumberOfMessages"));
      assertEquals("1", attributes.get("ApproximateNumberOfMessagesNotVisible"));
      assertEquals(Map.of("team", "payments"), sqs.listQueueTags(b -> b.queueUrl(url)).tags());
      // The in-flight message stays hidden, and its receipt handle from before the restart still works.
      List<Message> visible = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(0))
          .messages();
      assertEquals(1, visible.size());
      String handle = inFlightHandle;
      sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
      assertEquals("0", sqs.getQueueAttributes(b -> b.queueUrl(url)
          .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributesAsStrings()
          .get("ApproximateNumberOfMessagesNotVisible"));

      String fifo = second.queueUrl("restart-orders.fifo");
      // Deduplication ids survive too: f1 again within five minutes is still a duplicate.
      assertEquals(firstF1Id,
          sqs.sendMessage(b -> b.queueUrl(fifo).messageBody("f1").messageGroupId("g")).messageId());
      List<Message> group = sqs.receiveMessage(b -> b.queueUrl(fifo).maxNumberOfMessages(10)
          .messageSystemAttributeNames(MessageSystemAttributeName.SEQUENCE_NUMBER)).messages();
      assertEquals(List.of("f1", "f2", "f3"), group.stream().map(Message::body).toList());
      String next = sqs.sendMessage(b -> b.queueUrl(fifo).messageBody("f4").messageGroupId("g")).sequenceNumber();
      assertTrue(new java.math.BigInteger(next).compareTo(new java.math.BigInteger(
          group.get(2).attributes().get(MessageSystemAttributeName.SEQUENCE_NUMBER))) > 0,
          "sequence numbers keep increasing after a restart");
    }
  }

  @Test
  void underRelaxedDurabilitySendsArePersistedAndComeBack() throws Exception {
    try (TestServer relaxed = server(Map.of("SLUICE_DURABILITY", "relaxed")); SqsClient sqs = relaxed.client()) {
      String url = sqs.createQueue(b -> b.queueName("relaxed")).queueUrl();
      for (int i = 0; i < 100; i++) {
        int n = i;
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("r" + n));
      }
    }
    try (TestServer again = server(); SqsClient sqs = again.client()) {
      assertEquals("100", sqs.getQueueAttributes(b -> b.queueUrl(again.queueUrl("relaxed"))
          .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributesAsStrings()
          .get("ApproximateNumberOfMessages"));
    }
  }

  @Test
  void underRelaxedDurabilityADelayedMessageKeepsItsDelayAcrossARestart() throws Exception {
    try (TestServer relaxed = server(Map.of("SLUICE_DURABILITY", "relaxed")); SqsClient sqs = relaxed.client()) {
      String url = sqs.createQueue(b -> b.queueName("relaxed-delayed")).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("later").delaySeconds(120));
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("now"));
    }
    try (TestServer again = server(); SqsClient sqs = again.client()) {
      String url = again.queueUrl("relaxed-delayed");
      Map<String, String> counts = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
          "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed")).attributesAsStrings();
      assertEquals("1", counts.get("ApproximateNumberOfMessages"), counts.toString());
      assertEquals("1", counts.get("ApproximateNumberOfMessagesDelayed"), "still delayed, as it was sent: " + counts);
      assertEquals(List.of("now"), sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages().stream()
          .map(Message::body).toList());
    }
  }

  @Test
  void aFifoQueuesChangedDelayStillAppliesToItsDelayedMessagesAfterARestart() throws Exception {
    try (TestServer first = server(); SqsClient sqs = first.client()) {
      String url = sqs.createQueue(b -> b.queueName("redelayed.fifo").attributesWithStrings(Map.of(
          "FifoQueue", "true", "ContentBasedDeduplication", "true", "DelaySeconds", "600"))).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("held").messageGroupId("g"));
      // On a FIFO queue the queue's delay is retroactive: the message is due at once.
      sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("DelaySeconds", "0")));
    }
    try (TestServer again = server(); SqsClient sqs = again.client()) {
      String url = again.queueUrl("redelayed.fifo");
      assertEquals(List.of("held"), sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(2)).messages().stream()
          .map(Message::body).toList(), "the delay it was changed to, not the one it was sent under");
    }
  }

  /**
   * A Java push client (from the client jar) consuming while the server stops and starts again on
   * the same ports and data: it connects again by itself, its listener goes on (it gets what is sent
   * after the restart), and every message is seen and deleted (duplicates are allowed: an ack whose
   * answer the stop cut off may come again).
   */
  @Test
  void aJavaClientListenerGoesOnAcrossARestartAndLosesNothing() throws Exception {
    Map<String, String> ports = Map.of("SLUICE_HTTP_PORT", Integer.toString(QuickstartIT.freePort()),
        "SLUICE_PUSH_TCP_PORT", Integer.toString(QuickstartIT.freePort()));
    Set<String> seen = ConcurrentHashMap.newKeySet();
    AtomicInteger duplicates = new AtomicInteger();
    CountDownLatch half = new CountDownLatch(100);
    CountDownLatch all = new CountDownLatch(300);
    List<Throwable> ended = new CopyOnWriteArrayList<>();
    SluiceClient client = SluiceClient.connect(ClientOptions.tcp("127.0.0.1",
        Integer.parseInt(ports.get("SLUICE_PUSH_TCP_PORT"))).replyTimeout(Duration.ofSeconds(10)));
    try {
      String url;
      try (TestServer first = server(ports); SqsClient sqs = first.client()) {
        url = sqs.createQueue(b -> b.queueName("restart-pushed")).queueUrl();
        for (int batch = 0; batch < 20; batch++) {
          int base = batch * 10;
          sqs.sendMessageBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 10).mapToObj(i ->
              SendMessageBatchRequestEntry.builder().id("e" + i).messageBody("p" + (base + i)).build()).toList()));
        }
        client.listen(url, SubscribeOptions.maxUnacknowledged(10), d -> {
          if (seen.add(d.body())) {
            half.countDown();
            all.countDown();
          } else {
            duplicates.incrementAndGet();
          }
          d.ack();
        }, ended::add);
        assertTrue(half.await(20, TimeUnit.SECONDS), "seen " + seen.size() + " before the stop");
      }
      try (TestServer second = server(ports); SqsClient sqs = second.client()) {
        // Sent only now, so that they reach the listener only if it connected and subscribed again.
        for (int batch = 0; batch < 10; batch++) {
          int base = batch * 10;
          sqs.sendMessageBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 10).mapToObj(i ->
              SendMessageBatchRequestEntry.builder().id("e" + i).messageBody("q" + (base + i)).build()).toList()));
        }
        assertTrue(all.await(30, TimeUnit.SECONDS), "seen " + seen.size() + " of 300 after the restart");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Map<String, String> counts;
        do {
          Thread.sleep(50);
          counts = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
              "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        } while (!counts.values().stream().allMatch("0"::equals) && System.nanoTime() < deadline);
        assertEquals(Map.of("ApproximateNumberOfMessages", "0", "ApproximateNumberOfMessagesNotVisible", "0"), counts,
            "every message deleted (" + duplicates.get() + " seen twice)");
        client.close().await().atMost(Duration.ofSeconds(10)); // before its server stops
      }
    } finally {
      client.close().await().atMost(Duration.ofSeconds(10));
    }
    assertEquals(List.of(), ended, "a restart does not end the subscription");
  }
}
