package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import org.junit.jupiter.api.parallel.Isolated;

/** Long polls are parked receives: woken by a send, answered empty at their deadline. */
@Isolated
class LongPollIT extends SharedServerIT {
  static SqsAsyncClient async;

  @BeforeAll
  static void startAsyncClient() {
    async = server.asyncClient(16);
  }

  @AfterAll
  static void stopAsyncClient() {
    async.close();
  }

  @Test
  void aParkedReceiveWakesWithinMillisecondsOfASend() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("wake")).queueUrl();
    sqs.receiveMessage(b -> b.queueUrl(url)); // warm up the connection and code paths
    CompletableFuture<ReceiveMessageResponse> parked =
        async.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(20));
    Thread.sleep(300);
    assertTrue(!parked.isDone(), "the receive is parked");
    long sentAt = System.nanoTime();
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("wake up"));
    List<Message> got = parked.get(5, TimeUnit.SECONDS).messages();
    long wakeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt);
    assertEquals("wake up", got.get(0).body());
    assertTrue(wakeMillis < 250, "woke " + wakeMillis + " ms after the send");
  }

  @Test
  void aLongPollAnswersEmptyAtItsDeadline() {
    String url = sqs.createQueue(b -> b.queueName("deadline")).queueUrl();
    long start = System.nanoTime();
    assertTrue(sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(1)).messages().isEmpty());
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(tookMillis >= 950 && tookMillis < 1800, "took " + tookMillis + " ms");
  }

  @Test
  void theQueueWaitTimeAppliesWhenTheRequestOmitsIt() {
    String url = sqs.createQueue(b -> b.queueName("queue-wait")
        .attributesWithStrings(Map.of("ReceiveMessageWaitTimeSeconds", "1"))).queueUrl();
    long start = System.nanoTime();
    assertTrue(sqs.receiveMessage(b -> b.queueUrl(url)).messages().isEmpty());
    assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= 950);
    start = System.nanoTime();
    sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(0));
    assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 500, "an explicit 0 does not wait");
  }

  @Test
  void aLongPollReturnsAtOnceWhenMessagesAreThere() {
    String url = sqs.createQueue(b -> b.queueName("no-block")).queueUrl();
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("here"));
    long start = System.nanoTime();
    assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(20).maxNumberOfMessages(10))
        .messages().size());
    assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 1000);
  }

  @Test
  void aReceiveWhoseConnectionClosedTakesNoMessage() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("abandoned")).queueUrl();
    String body = "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":20}";
    server.parkAndHangUp("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: AmazonSQS.ReceiveMessage\r\n"
        + "Content-Type: application/x-amz-json-1.0\r\n", body);
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("for a live consumer"));
    List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url)).messages();
    assertEquals(1, got.size(), "the closed connection's receive was dropped, not handed the message");
  }
}
