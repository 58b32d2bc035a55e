package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.TallyCheck;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The durability contract under {@code kill -9}: the packaged jar runs as a child process on a
 * PostgreSQL of the test's own; producers send 20,000 messages to a standard and a FIFO queue and
 * record every acknowledgment, consumers delete some; the server is killed mid-stream and started
 * again. Every acknowledged, undeleted message comes back, FIFO order holds per group, an
 * acknowledged FIFO delete stays deleted, and deduplication ids still deduplicate.
 */
@NeedsTools(Tool.POSTGRESQL)
@Isolated
class DurableCrashIT {
  static final int MESSAGES = 20_000;
  static final int GROUPS = 20;

  static ThrowawayPostgres pg;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
  }

  @AfterAll
  static void stop() throws Exception {
    TallyCheck.assertExact(pg.url());
    pg.close();
  }

  static Process server(int port, Path log) throws Exception {
    // A short database lease: the restart after kill -9 waits out one lease before it serves.
    ProcessBuilder pb = ServerJar.logging(log, Map.of("SLUICE_HTTP_PORT", Integer.toString(port), "SLUICE_STORAGE", "postgres",
        "SLUICE_PG_URL", pg.url(), "SLUICE_PG_LEASE_MILLIS", "2000"));
    Process p = pb.start();
    QuickstartIT.awaitPort(port, p);
    return p;
  }

  static SqsAsyncClient client(int port) {
    return SqsAsyncClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .httpClient(NettyNioAsyncHttpClient.builder().maxConcurrency(64).readTimeout(Duration.ofSeconds(30)).build())
        .build();
  }

  @Test
  void acknowledgedMessagesSurviveKillNineAndDeletedFifoMessagesStayDeleted() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("crash-");
    Process first = server(port, log);
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    Set<String> deleted = ConcurrentHashMap.newKeySet();
    // A delete may commit and the crash come before its answer: such a message may be gone.
    Set<String> deleting = ConcurrentHashMap.newKeySet();
    Map<String, String> fifoIds = new ConcurrentHashMap<>();
    Map<String, BigInteger> fifoSequence = new ConcurrentHashMap<>();
    String standard;
    String fifo;
    try (SqsAsyncClient sqs = client(port)) {
      standard = sqs.createQueue(b -> b.queueName("crash")).get().queueUrl();
      fifo = sqs.createQueue(b -> b.queueName("crash.fifo").attributesWithStrings(
          Map.of("FifoQueue", "true", "VisibilityTimeout", "1"))).get().queueUrl();
      AtomicInteger next = new AtomicInteger();
      AtomicBoolean killed = new AtomicBoolean();
      List<CompletableFuture<Void>> producers = new ArrayList<>();
      for (int p = 0; p < 16; p++) {
        producers.add(CompletableFuture.runAsync(() -> {
          int from;
          while (!killed.get() && (from = next.getAndAdd(10)) < MESSAGES) {
            boolean toFifo = (from / 10) % 2 == 1;
            List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = from; i < from + 10; i++) {
              String body = (toFifo ? "f-" : "s-") + i;
              SendMessageBatchRequestEntry.Builder e = SendMessageBatchRequestEntry.builder().id("e" + (i - from))
                  .messageBody(body);
              if (toFifo) {
                e.messageGroupId("g" + ((i / 10) % GROUPS)).messageDeduplicationId(body);
              }
              entries.add(e.build());
            }
            try {
              var sent = sqs.sendMessageBatch(b -> b.queueUrl(toFifo ? fifo : standard).entries(entries)).get();
              sent.successful().forEach(s -> {
                String body = entries.get(Integer.parseInt(s.id().substring(1))).messageBody();
                acknowledged.add(body);
                if (toFifo) {
                  fifoIds.put(body, s.messageId());
                  fifoSequence.put(body, new BigInteger(s.sequenceNumber()));
                }
              });
            } catch (Exception crashed) {
              return;
            }
          }
        }));
      }
      CompletableFuture<Void> consumer = CompletableFuture.runAsync(() -> {
        while (!killed.get()) {
          for (String url : List.of(standard, fifo)) {
            try {
              List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
                  .visibilityTimeout(1)).get().messages();
              for (Message m : got) {
                if (m.body().hashCode() % 3 == 0) {
                  deleting.add(m.body());
                  sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())).get();
                  deleted.add(m.body());
                }
              }
            } catch (Exception crashed) {
              return;
            }
          }
        }
      });
      while (acknowledged.size() < MESSAGES / 2) {
        Thread.sleep(5);
      }
      first.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
      killed.set(true);
      assertTrue(first.waitFor(10, TimeUnit.SECONDS));
      CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
      consumer.get(30, TimeUnit.SECONDS);
    }

    Process second = server(port, log);
    try (SqsAsyncClient sqs = client(port)) {
      Thread.sleep(1100); // messages in flight at the crash (visibility 1 s) become visible
      // Sixteen producers send at once, so a group's batches reach the server in an order of their
      // own: FIFO order is that of the sequence numbers the server gave, not of the bodies.
      Map<String, List<BigInteger>> fifoOrder = new HashMap<>();
      Set<String> drained = new HashSet<>();
      for (String url : List.of(standard, fifo)) {
        int empty = 0;
        while (empty < 3) {
          List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(60)
              .messageSystemAttributeNamesWithStrings("MessageGroupId", "SequenceNumber")).get().messages();
          empty = got.isEmpty() ? empty + 1 : 0;
          if (got.isEmpty()) {
            continue;
          }
          for (Message m : got) {
            drained.add(m.body());
            if (url.equals(fifo)) {
              BigInteger sequence = new BigInteger(m.attributesAsStrings().get("SequenceNumber"));
              if (fifoSequence.containsKey(m.body())) {
                assertEquals(fifoSequence.get(m.body()), sequence, "the sequence number " + m.body() + " was sent with");
              }
              fifoOrder.computeIfAbsent(m.attributesAsStrings().get("MessageGroupId"), g -> new ArrayList<>())
                  .add(sequence);
            }
          }
          List<DeleteMessageBatchRequestEntry> deletes = new ArrayList<>();
          for (int i = 0; i < got.size(); i++) {
            deletes.add(DeleteMessageBatchRequestEntry.builder().id("d" + i).receiptHandle(got.get(i).receiptHandle())
                .build());
          }
          sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(deletes)).get();
        }
      }
      Set<String> lost = new HashSet<>(acknowledged);
      lost.removeAll(deleted);
      lost.removeAll(deleting);
      lost.removeAll(drained);
      assertEquals(Set.of(), lost, "acknowledged, undeleted messages lost in the crash");
      Set<String> resurrected = new HashSet<>(drained);
      resurrected.retainAll(deleted);
      resurrected.removeIf(b -> b.startsWith("s-")); // a standard delete is written behind: at-least-once
      assertEquals(Set.of(), resurrected, "acknowledged FIFO deletes undone by the crash");
      fifoOrder.forEach((group, order) -> {
        List<BigInteger> sorted = new ArrayList<>(order);
        sorted.sort(null);
        assertEquals(sorted, order, "FIFO order of group " + group);
      });
      // Deduplication ids still deduplicate: resending an acknowledged FIFO message answers as the original.
      String body = fifoIds.keySet().iterator().next();
      String id = sqs.sendMessage(b -> b.queueUrl(fifo).messageBody(body).messageGroupId("g0")
          .messageDeduplicationId(body)).get().messageId();
      assertEquals(fifoIds.get(body), id);
      assertTrue(acknowledged.size() >= MESSAGES / 2);
    } finally {
      second.destroy();
      second.waitFor(15, TimeUnit.SECONDS);
    }
    assertEquals(List.of(), Files.readAllLines(log).stream()
        .filter(l -> l.contains("SEVERE") || l.contains("blocked")).toList());
  }
}
