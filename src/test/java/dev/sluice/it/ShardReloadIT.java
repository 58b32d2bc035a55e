package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import dev.sluice.api.QueueKey;
import dev.sluice.engine.ShardRouter;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The steps by which a shard changes hands (in cluster mode, between nodes), run on one durable
 * server: a shard drains (client calls refused with the retryable ServiceUnavailable, parked
 * receives answered, everything written), and a new deployment under a new run loads it from
 * PostgreSQL and serves it. Under load, with paging on (a head window of 50): nothing acknowledged
 * is lost, FIFO order holds, old receipt handles still delete, counts are exact (and the tallies,
 * checked after each case), and a new deployment's keys are above the old ones.
 */
@Isolated
class ShardReloadIT extends DurableServerIT {
  static final Map<String, String> SETTINGS = Map.of("SLUICE_ENGINE_SHARDS", "2", "SLUICE_PG_HEAD_WINDOW_MESSAGES",
      "50");

  /** A queue name starting with {@code prefix} (and ending with {@code suffix}) that shard {@code shard} owns. */
  static String nameOnShard(String prefix, String suffix, int shard) {
    ShardRouter router = new ShardRouter(2);
    for (int i = 0; ; i++) {
      String name = prefix + i + suffix;
      if (router.shardOf(new QueueKey("000000000000", "us-east-1", name)) == shard) {
        return name;
      }
    }
  }

  static String count(SqsClient sqs, String url, QueueAttributeName name) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(name)).attributesAsStrings()
        .get(name.toString());
  }

  /** Reloads shard 0 and 1 in turn until {@code done}; answers how many reloads ran. */
  static Future<Integer> reloadUntil(TestServer server, AtomicBoolean done, ExecutorService pool) {
    return pool.submit(() -> {
      int n = 0;
      while (!done.get()) {
        Thread.sleep(150);
        server.sluice.engine().reloadShard(n % 2).await(30, TimeUnit.SECONDS);
        n++;
      }
      return n;
    });
  }

  @Test
  void underLoadNothingAcknowledgedIsLostAndFifoOrderHolds() throws Exception {
    ExecutorService pool = Executors.newCachedThreadPool();
    try (TestServer server = server(SETTINGS); SqsClient sqs = server.patientClient()) {
      // One queue on each shard.
      String fifo = sqs.createQueue(b -> b.queueName(nameOnShard("reload-", ".fifo", 0))
          .attributesWithStrings(Map.of("FifoQueue", "true"))).queueUrl();
      String standard = sqs.createQueue(b -> b.queueName(nameOnShard("reload-", "", 1))).queueUrl();
      int fifoMessages = 2000;
      int standardMessages = 2000;
      FifoTraffic traffic = new FifoTraffic(10, 100);
      Set<String> acknowledged = ConcurrentHashMap.newKeySet();
      Map<String, Integer> received = new ConcurrentHashMap<>();
      AtomicBoolean sent = new AtomicBoolean();
      AtomicInteger standardSenders = new AtomicInteger(4);

      Future<Integer> reloads = reloadUntil(server, sent, pool);
      List<Future<?>> work = new ArrayList<>();
      work.add(pool.submit(() -> {
        traffic.send(server::patientClient, fifo, 0, fifoMessages);
        return null;
      }));
      work.add(pool.submit(() -> {
        traffic.drain(server::patientClient, fifo, () -> traffic.deleted.get() >= fifoMessages);
        return null;
      }));
      AtomicInteger next = new AtomicInteger();
      for (int t = 0; t < 4; t++) {
        work.add(pool.submit(() -> {
          try (SqsClient client = server.patientClient()) {
            int start;
            while ((start = next.getAndAdd(10)) < standardMessages) {
              List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
              for (int i = start; i < start + 10; i++) {
                entries.add(SendMessageBatchRequestEntry.builder().id("e" + i).messageBody("s-" + i).build());
              }
              client.sendMessageBatch(b -> b.queueUrl(standard).entries(entries)).successful()
                  .forEach(e -> acknowledged.add("s-" + e.id().substring(1)));
            }
          } finally {
            standardSenders.decrementAndGet();
          }
          return null;
        }));
      }
      for (int t = 0; t < 4; t++) {
        work.add(pool.submit(() -> {
          try (SqsClient client = server.patientClient()) {
            while (standardSenders.get() > 0 || !received.keySet().containsAll(acknowledged)) {
              List<Message> got = client.receiveMessage(b -> b.queueUrl(standard).maxNumberOfMessages(10)
                  .waitTimeSeconds(1).visibilityTimeout(600)).messages();
              if (got.isEmpty()) {
                continue;
              }
              List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
              for (Message m : got) {
                received.merge(m.body(), 1, Integer::sum);
                entries.add(DeleteMessageBatchRequestEntry.builder().id("d" + entries.size())
                    .receiptHandle(m.receiptHandle()).build());
              }
              assertEquals(got.size(), client.deleteMessageBatch(b -> b.queueUrl(standard).entries(entries))
                  .successful().size(), "old receipt handles delete across reloads");
            }
          }
          return null;
        }));
      }
      for (Future<?> f : work) {
        f.get(3, TimeUnit.MINUTES);
      }
      sent.set(true);
      int reloaded = reloads.get(1, TimeUnit.MINUTES);
      assertTrue(reloaded >= 4, "the shards were reloaded under load (" + reloaded + " times)");

      traffic.assertExactlyOnceInGroupOrder(fifoMessages);
      assertEquals(standardMessages, acknowledged.size());
      assertTrue(received.keySet().containsAll(acknowledged), "every acknowledged message was received");
      // Deleted before its visibility (600 s) ran out, nothing comes twice.
      assertEquals(Set.of(1), Set.copyOf(received.values()), "no message came twice");
      server.sluice.engine().reloadShard(0).await(30, TimeUnit.SECONDS);
      server.sluice.engine().reloadShard(1).await(30, TimeUnit.SECONDS);
      for (String url : List.of(fifo, standard)) {
        assertEquals("0", count(sqs, url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
        assertEquals("0", count(sqs, url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void receiptHandlesStayValidAndANewDeploymentsKeysAreAboveTheOldOnes() throws Exception {
    try (TestServer server = server(SETTINGS); SqsClient sqs = server.patientClient()) {
      for (int s = 0; s < 2; s++) {
        int shard = s;
        String url = sqs.createQueue(b -> b.queueName(nameOnShard("handles-", "", shard))).queueUrl();
        // Many messages before the reload: the old deployment's keys run well past its first.
        for (int i = 0; i < 30; i++) {
          int n = i;
          sqs.sendMessage(b -> b.queueUrl(url).messageBody("old-" + n));
        }
        Message held = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(600)).messages().get(0);
        server.sluice.engine().reloadShard(shard).await(30, TimeUnit.SECONDS);
        assertEquals("1", count(sqs, url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(held.receiptHandle()));
        assertEquals("0", count(sqs, url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
        assertEquals("29", count(sqs, url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));

        // A purge after the reload covers the old rows; a message sent after it stays, reloaded again.
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("before-purge"));
        sqs.purgeQueue(b -> b.queueUrl(url));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("after-purge"));
        server.sluice.engine().reloadShard(shard).await(30, TimeUnit.SECONDS);
        List<Message> left = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(2))
            .messages();
        assertEquals(List.of("after-purge"), left.stream().map(Message::body).toList());
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(left.get(0).receiptHandle()));
      }
    }
  }
}
