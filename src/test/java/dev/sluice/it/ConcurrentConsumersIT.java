package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/** Sixteen consumers that delete promptly share 500 messages: each is received exactly once. */
class ConcurrentConsumersIT {
  @Test
  void sixteenConsumersReceiveFiveHundredMessagesExactlyOnce() throws Exception {
    try (TestServer server = TestServer.start(); SqsClient sqs = server.client()) {
      String url = sqs.createQueue(b -> b.queueName("shared")).queueUrl();
      for (int batch = 0; batch < 50; batch++) {
        int base = batch * 10;
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 10)
            .mapToObj(i -> SendMessageBatchRequestEntry.builder().id("e" + i).messageBody("m" + (base + i)).build())
            .toList()));
      }
      Map<String, Integer> seen = new ConcurrentHashMap<>();
      AtomicInteger deleted = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(16);
      try {
        List<Future<?>> consumers = IntStream.range(0, 16).mapToObj(c -> pool.submit(() -> {
          while (deleted.get() < 500) {
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
                .messages();
            if (got.isEmpty()) {
              continue;
            }
            got.forEach(m -> seen.merge(m.body(), 1, Integer::sum));
            sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(got.stream().map(m -> DeleteMessageBatchRequestEntry
                .builder().id(m.messageId()).receiptHandle(m.receiptHandle()).build()).toList()));
            deleted.addAndGet(got.size());
          }
        })).<Future<?>>map(f -> f).toList();
        for (Future<?> f : consumers) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(500, seen.size());
      assertTrue(seen.values().stream().allMatch(n -> n == 1), "no message was delivered twice");
      assertEquals(500, deleted.get());
    }
  }
}
