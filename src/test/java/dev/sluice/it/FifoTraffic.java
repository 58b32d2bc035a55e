package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

/**
 * FIFO traffic for backlog tests: messages m-0, m-1, … in {@code groups} groups (m-i in group
 * i % groups) sent from several threads, and consumers that receive and delete; what each side saw,
 * by group and sequence number, so that a test can check every message came exactly once and each
 * group in its order, across restarts too. Thread-safe.
 */
final class FifoTraffic {
  private final int groups;
  private final String padding;
  /** Per group, the sequence numbers its acknowledged sends got. */
  final Map<String, NavigableSet<BigInteger>> sent = new ConcurrentHashMap<>();
  /**
   * Per group, the sequence numbers of its messages in the order they were received. A group's next
   * messages cannot be received before its in-flight ones are deleted, and consumers note what they
   * received before they delete it, so this is the group's delivery order.
   */
  final Map<String, List<BigInteger>> received = new ConcurrentHashMap<>();
  /** Body (without its padding) to the times it was received. */
  final Map<String, Integer> bodies = new ConcurrentHashMap<>();
  final AtomicInteger deleted = new AtomicInteger();

  /** {@code bodyBytes}: each body is padded to about this size. */
  FifoTraffic(int groups, int bodyBytes) {
    this.groups = groups;
    this.padding = "|" + "x".repeat(Math.max(0, bodyBytes - 10));
  }

  static String group(int i, int groups) {
    return "g" + (i % groups);
  }

  /** Sends m-{from}..m-{to - 1} in batches of 10 (each of 10 groups), from {@link BacklogIT#SENDERS} threads. */
  void send(TestServer server, String url, int from, int to) throws Exception {
    send(server::client, url, from, to);
  }

  /** {@link #send(TestServer, String, int, int)} with clients from {@code clients}. */
  void send(Supplier<SqsClient> clients, String url, int from, int to) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(BacklogIT.SENDERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      AtomicInteger next = new AtomicInteger(from);
      for (int t = 0; t < BacklogIT.SENDERS; t++) {
        done.add(pool.submit(() -> {
          try (SqsClient sqs = clients.get()) {
            int start;
            while ((start = next.getAndAdd(10)) < to) {
              List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
              for (int i = start; i < Math.min(start + 10, to); i++) {
                entries.add(SendMessageBatchRequestEntry.builder().id("e" + i).messageBody("m-" + i + padding)
                    .messageGroupId(group(i, groups)).messageDeduplicationId("m-" + i).build());
              }
              List<SendMessageBatchResultEntry> ok = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries))
                  .successful();
              assertEquals(entries.size(), ok.size());
              for (SendMessageBatchResultEntry e : ok) {
                int i = Integer.parseInt(e.id().substring(1));
                sent.computeIfAbsent(group(i, groups), g -> new ConcurrentSkipListSet<>())
                    .add(new BigInteger(e.sequenceNumber()));
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Receives and deletes with {@link BacklogIT#CONSUMERS} threads until {@code enough}; each consumer deletes
   * what it received before it receives again, and hides it long enough never to come back.
   */
  void drain(TestServer server, String url, BooleanSupplier enough) throws Exception {
    drain(server::client, url, enough);
  }

  /** {@link #drain(TestServer, String, BooleanSupplier)} with clients from {@code clients}. */
  void drain(Supplier<SqsClient> clients, String url, BooleanSupplier enough) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(BacklogIT.CONSUMERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < BacklogIT.CONSUMERS; t++) {
        done.add(pool.submit(() -> {
          try (SqsClient sqs = clients.get()) {
            while (!enough.getAsBoolean()) {
              List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
                  .visibilityTimeout(600).messageSystemAttributeNames(MessageSystemAttributeName.SEQUENCE_NUMBER,
                      MessageSystemAttributeName.MESSAGE_GROUP_ID)).messages();
              if (got.isEmpty()) {
                continue;
              }
              List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
              for (Message m : got) {
                Map<MessageSystemAttributeName, String> a = m.attributes();
                List<BigInteger> order = received.computeIfAbsent(a.get(MessageSystemAttributeName.MESSAGE_GROUP_ID),
                    g -> new ArrayList<>());
                synchronized (order) {
                  order.add(new BigInteger(a.get(MessageSystemAttributeName.SEQUENCE_NUMBER)));
                }
                bodies.merge(m.body().substring(0, m.body().indexOf('|')), 1, Integer::sum);
                entries.add(DeleteMessageBatchRequestEntry.builder().id("d" + entries.size())
                    .receiptHandle(m.receiptHandle()).build());
              }
              assertEquals(got.size(), sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(entries))
                  .successful().size());
              deleted.addAndGet(got.size());
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Every message of m-0..m-{messages - 1} was received exactly once, and each group's messages
   * came in the order of their sequence numbers, all of those its sends were given.
   */
  void assertExactlyOnceInGroupOrder(int messages) {
    assertEquals(messages, bodies.size(), "every message was received");
    for (int i = 0; i < messages; i++) {
      assertEquals(1, bodies.getOrDefault("m-" + i, 0), "m-" + i + " received once");
    }
    assertEquals(groups, sent.size());
    sent.forEach((group, sequence) -> {
      List<BigInteger> order = received.get(group);
      synchronized (order) {
        assertEquals(List.copyOf(sequence), order, "group " + group + ": received in sequence order, each once");
      }
    });
  }
}
