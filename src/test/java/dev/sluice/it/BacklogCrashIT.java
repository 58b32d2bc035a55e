package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.TallyCheck;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
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
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SqsException;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Durable queues larger than memory under {@code kill -9} (issue 16, design §4 "BacklogCrashIT"):
 * the packaged jar runs as a child process with a 96 MB heap, a head window of 200 messages and the
 * default durability (commit) on a PostgreSQL of the test's own. A standard queue gets a backlog
 * almost all of which lives in PostgreSQL only, a FIFO queue a few thousand messages in 20 groups;
 * many consumers drain both, and the server is killed with SIGKILL at about 40% of the standard
 * drain (the FIFO drain kept at about the same point). The restarted server is ready within the
 * lease plus a few seconds and the drain finishes: no acknowledged message whose delete was not
 * acknowledged is lost, FIFO order holds per group across the restart, no acknowledged FIFO delete
 * comes back, the counts end at 0, the log is clean and the tallies equal the rows.
 */
@NeedsTools(Tool.POSTGRESQL)
@Isolated
class BacklogCrashIT {
  /** As many as the suite's budget allows on 2 cores (the whole test runs in about a minute). */
  static final int STANDARD_MESSAGES = 50_000;
  static final int FIFO_MESSAGES = 3_000;
  static final int GROUPS = 20;
  static final int SENDERS = 16;
  static final int STANDARD_CONSUMERS = 24;
  static final int FIFO_CONSUMERS = 4;
  static final double KILL_AT = 0.4;
  /**
   * Short, to keep the restart short; 1,500 ms was seen to lapse once under a load average of 14 on
   * 2 cores (the server then answers 503 until PostgreSQL confirms its lock again, see retryable).
   */
  static final int LEASE_MILLIS = 2_000;
  /** Visibility before the kill: what was in flight then is visible again soon after the restart. */
  static final int VISIBILITY_BEFORE_KILL = 5;

  static ThrowawayPostgres pg;
  /** Every server started, so that a failed run leaves none behind. */
  static final List<Process> servers = new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
  }

  @AfterAll
  static void stop() throws Exception {
    for (Process p : servers) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    if (pg != null) {
      pg.close();
    }
  }

  static Process server(int port, Path log) throws Exception {
    Process p = ServerJar.logging(log, Map.of(
        "JAVA_TOOL_OPTIONS", "-Xmx96m",
        "SLUICE_HTTP_PORT", Integer.toString(port),
        "SLUICE_STORAGE", "postgres",
        "SLUICE_PG_URL", pg.url(),
        "SLUICE_PG_HEAD_WINDOW_MESSAGES", "200",
        "SLUICE_PG_LEASE_MILLIS", Integer.toString(LEASE_MILLIS))).start();
    servers.add(p);
    QuickstartIT.awaitPort(port, p);
    return p;
  }

  /** A client that gives up at the first error: an answer it reports is the server's own. */
  static SqsClient client(int port) {
    return SqsClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
        .build();
  }

  // What the clients observed. Standard messages are known by MessageId, FIFO ones by body.
  final Map<String, String> standardAcknowledged = new ConcurrentHashMap<>();
  final Map<String, String> fifoAcknowledged = new ConcurrentHashMap<>();
  final Map<String, BigInteger> fifoSequence = new ConcurrentHashMap<>();
  final Map<String, String> fifoGroup = new ConcurrentHashMap<>();
  /** Per group, sequence number to body of every acknowledged FIFO send. */
  final Map<String, NavigableMap<BigInteger, String>> fifoByGroup = new ConcurrentHashMap<>();
  /** A delete asked for (recorded before the request leaves) and a delete acknowledged. */
  final Set<String> standardDeleting = ConcurrentHashMap.newKeySet();
  final Set<String> standardDeleted = ConcurrentHashMap.newKeySet();
  final Set<String> fifoDeleting = ConcurrentHashMap.newKeySet();
  final Set<String> fifoDeleted = ConcurrentHashMap.newKeySet();
  final AtomicInteger standardDeletedCount = new AtomicInteger();
  final AtomicInteger fifoDeletedCount = new AtomicInteger();
  /** Received after the restart: id (standard) or body (FIFO) to how many times. */
  final Map<String, Integer> standardAfter = new ConcurrentHashMap<>();
  final Map<String, Integer> fifoAfter = new ConcurrentHashMap<>();
  final List<String> fifoOrderViolations = new ArrayList<>();
  final AtomicLong sendRetries = new AtomicLong();
  /** Answers 503 (not serving, retry) that consumers retried: the server's lease lapsed under load. */
  final AtomicLong consumerRetries = new AtomicLong();
  final AtomicBoolean killed = new AtomicBoolean();

  @Test
  void aPagedBacklogKilledMidDrainLosesNothingAcknowledged() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("backlog-crash-");
    long t0 = System.nanoTime();
    Process first = server(port, log);
    long coldMillis = (System.nanoTime() - t0) / 1_000_000;
    String standard;
    String fifo;
    long sentMillis;
    int standardAtKill;
    int fifoAtKill;
    try (SqsClient sqs = client(port)) {
      standard = sqs.createQueue(b -> b.queueName("backlog-crash")).queueUrl();
      fifo = sqs.createQueue(b -> b.queueName("backlog-crash.fifo").attributesWithStrings(
          Map.of("FifoQueue", "true"))).queueUrl();
      long sendStart = System.nanoTime();
      send(port, standard, fifo);
      sentMillis = (System.nanoTime() - sendStart) / 1_000_000;
      assertEquals(STANDARD_MESSAGES, standardAcknowledged.size(), "every standard send acknowledged");
      assertEquals(FIFO_MESSAGES, fifoAcknowledged.size(), "every FIFO send acknowledged");

      ExecutorService pool = Executors.newFixedThreadPool(STANDARD_CONSUMERS + FIFO_CONSUMERS);
      List<Future<?>> consumers = new ArrayList<>();
      BooleanSupplier stop = killed::get;
      for (int c = 0; c < STANDARD_CONSUMERS; c++) {
        consumers.add(pool.submit(() -> consumeStandard(port, standard, VISIBILITY_BEFORE_KILL, stop, null)));
      }
      for (int c = 0; c < FIFO_CONSUMERS; c++) {
        consumers.add(pool.submit(() -> consumeFifo(port, fifo, VISIBILITY_BEFORE_KILL, stop, true, null)));
      }
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (standardDeletedCount.get() < STANDARD_MESSAGES * KILL_AT) {
        assertTrue(System.nanoTime() < deadline, "the drain reached " + KILL_AT + " in time");
        for (Future<?> f : consumers) {
          if (f.isDone()) {
            f.get(); // a consumer that failed before the kill fails the test
          }
        }
        Thread.sleep(2);
      }
      killed.set(true);
      first.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
      standardAtKill = standardDeletedCount.get();
      fifoAtKill = fifoDeletedCount.get();
      assertTrue(first.waitFor(10, TimeUnit.SECONDS));
      for (Future<?> f : consumers) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdownNow();
    }
    // What the clients knew when the server died (the sets grow again after the restart).
    Set<String> standardDeletedBefore = Set.copyOf(standardDeleted);
    Set<String> standardDeletingBefore = Set.copyOf(standardDeleting);
    Set<String> fifoDeletedBefore = Set.copyOf(fifoDeleted);
    Set<String> fifoDeletingBefore = Set.copyOf(fifoDeleting);
    assertTrue(fifoAtKill > 0 && fifoAtKill < FIFO_MESSAGES, "killed mid FIFO drain: " + fifoAtKill);

    long restart = System.nanoTime();
    Process second = server(port, log);
    long readyMillis = (System.nanoTime() - restart) / 1_000_000;
    int standardAfterCount;
    try (SqsClient sqs = client(port)) {
      AtomicBoolean drained = new AtomicBoolean();
      BooleanSupplier stop = drained::get;
      ExecutorService pool = Executors.newFixedThreadPool(STANDARD_CONSUMERS + FIFO_CONSUMERS);
      List<Future<?>> consumers = new ArrayList<>();
      for (int c = 0; c < STANDARD_CONSUMERS; c++) {
        consumers.add(pool.submit(() -> consumeStandard(port, standard, 60, stop, standardAfter)));
      }
      for (int c = 0; c < FIFO_CONSUMERS; c++) {
        consumers.add(pool.submit(() -> consumeFifo(port, fifo, 60, stop, false, fifoAfter)));
      }
      // Drained once both queues count nothing, several times in a row (what was in flight at the
      // kill comes back visible within VISIBILITY_BEFORE_KILL).
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      int emptyPolls = 0;
      while (emptyPolls < 4) {
        assertTrue(System.nanoTime() < deadline, "the drain after the restart finished in time");
        for (Future<?> f : consumers) {
          if (f.isDone()) {
            f.get();
          }
        }
        Thread.sleep(500);
        emptyPolls = total(counts(sqs, standard)) + total(counts(sqs, fifo)) == 0 ? emptyPolls + 1 : 0;
      }
      drained.set(true);
      for (Future<?> f : consumers) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdownNow();
      standardAfterCount = standardAfter.size();
      assertEquals(List.of(), sqs.receiveMessage(b -> b.queueUrl(standard).maxNumberOfMessages(10)).messages());
      assertEquals(List.of(), sqs.receiveMessage(b -> b.queueUrl(fifo).maxNumberOfMessages(10)).messages());
      Map<String, String> zero = Map.of("ApproximateNumberOfMessages", "0", "ApproximateNumberOfMessagesNotVisible",
          "0", "ApproximateNumberOfMessagesDelayed", "0");
      assertEquals(zero, counts(sqs, standard), "standard counts at the end");
      assertEquals(zero, counts(sqs, fifo), "FIFO counts at the end");
    } finally {
      second.destroy();
      if (!second.waitFor(30, TimeUnit.SECONDS)) {
        second.destroyForcibly();
      }
    }
    long totalMillis = (System.nanoTime() - t0) / 1_000_000;

    // What the clients saw, against what they were promised.
    Set<String> standardUnresolved = new HashSet<>(standardDeletingBefore);
    standardUnresolved.removeAll(standardDeletedBefore); // asked, answer lost in the kill: may be gone
    Set<String> standardLost = new HashSet<>(standardAcknowledged.keySet());
    standardLost.removeAll(standardDeletedBefore);
    standardLost.removeAll(standardUnresolved);
    standardLost.removeAll(standardAfter.keySet());
    Set<String> standardBack = new HashSet<>(standardAfter.keySet());
    standardBack.retainAll(standardDeletedBefore);
    Set<String> standardUnknown = new HashSet<>(standardAfter.keySet());
    standardUnknown.removeAll(standardAcknowledged.keySet());
    long standardTwice = standardAfter.values().stream().filter(n -> n > 1).count();
    Set<String> fifoUnresolved = new HashSet<>(fifoDeletingBefore);
    fifoUnresolved.removeAll(fifoDeletedBefore);
    Set<String> fifoLost = new HashSet<>(fifoAcknowledged.keySet());
    fifoLost.removeAll(fifoDeletedBefore);
    fifoLost.removeAll(fifoUnresolved);
    fifoLost.removeAll(fifoAfter.keySet());
    Set<String> fifoBack = new HashSet<>(fifoAfter.keySet());
    fifoBack.retainAll(fifoDeletedBefore);
    Set<String> fifoUnknown = new HashSet<>(fifoAfter.keySet());
    fifoUnknown.removeAll(fifoAcknowledged.keySet());

    System.out.printf("BacklogCrashIT: %d standard + %d FIFO messages (%d groups) sent in %d ms (%d send retries, %d consumer retries);"
            + " killed at %d/%d standard deletes (%.0f%%), %d/%d FIFO deletes; ready %d ms after the restart"
            + " (lease %d ms, first start %d ms); after it %d standard and %d FIFO messages received; duplicates: %d standard"
            + " acknowledged deletes back, %d received twice after the restart, %d unresolved standard deletes"
            + " (%d back), %d unresolved FIFO deletes (%d back); total %d ms%n",
        STANDARD_MESSAGES, FIFO_MESSAGES, GROUPS, sentMillis, sendRetries.get(), consumerRetries.get(),
        standardAtKill, STANDARD_MESSAGES,
        100.0 * standardAtKill / STANDARD_MESSAGES, fifoAtKill, FIFO_MESSAGES, readyMillis, LEASE_MILLIS, coldMillis,
        standardAfterCount, fifoAfter.size(), standardBack.size(), standardTwice, standardUnresolved.size(),
        standardUnresolved.stream().filter(standardAfter::containsKey).count(), fifoUnresolved.size(),
        fifoUnresolved.stream().filter(fifoAfter::containsKey).count(), totalMillis);

    assertEquals(Set.of(), standardLost, "acknowledged standard messages, not acknowledged deleted, lost");
    assertEquals(Set.of(), fifoLost, "acknowledged FIFO messages, not acknowledged deleted, lost");
    assertEquals(Set.of(), fifoBack, "acknowledged FIFO deletes undone by the kill");
    assertEquals(Set.of(), fifoUnknown, "FIFO messages never sent");
    if (sendRetries.get() == 0) {
      assertEquals(Set.of(), standardUnknown, "standard messages never acknowledged");
    }
    synchronized (fifoOrderViolations) {
      assertEquals(List.of(), fifoOrderViolations, "FIFO order per group");
    }
    // Ready within the lease plus 5 s, counted beyond what a JVM takes to start a server on an
    // empty database on this machine (on 2 shared cores that alone can take several seconds).
    assertTrue(readyMillis < coldMillis + LEASE_MILLIS + 5_000,
        "ready " + readyMillis + " ms after the restart, the first start took " + coldMillis + " ms");
    assertEquals(List.of(), Files.readAllLines(log).stream()
        .filter(l -> l.contains("OutOfMemoryError") || l.contains("Tally mismatch") || l.contains("SEVERE"))
        .toList(), "server log " + log);
    TallyCheck.assertExact(pg.url());
  }

  /** Sends every message, batches of 10, resending (only) the entries not acknowledged. */
  void send(int port, String standard, String fifo) throws Exception {
    int batches = (STANDARD_MESSAGES + FIFO_MESSAGES) / 10;
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(SENDERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < SENDERS; t++) {
        done.add(pool.submit(() -> {
          try (SqsClient sqs = client(port)) {
            int batch;
            while ((batch = next.getAndIncrement()) < batches) {
              // Interleaved: one FIFO batch in every (STANDARD / FIFO + 1); a FIFO batch is one group.
              int fifoEvery = STANDARD_MESSAGES / FIFO_MESSAGES + 1;
              boolean toFifo = batch % fifoEvery == 0 && batch / fifoEvery < FIFO_MESSAGES / 10;
              int index = toFifo ? batch / fifoEvery : batch - Math.min(batch / fifoEvery + 1, FIFO_MESSAGES / 10);
              String group = "g" + (index % GROUPS);
              Map<String, SendMessageBatchRequestEntry> pending = new HashMap<>();
              for (int i = 0; i < 10; i++) {
                String body = (toFifo ? "f-" : "s-") + (index * 10 + i);
                SendMessageBatchRequestEntry.Builder e = SendMessageBatchRequestEntry.builder().id("e" + i)
                    .messageBody(body);
                if (toFifo) {
                  e.messageGroupId(group).messageDeduplicationId(body);
                }
                pending.put("e" + i, e.build());
              }
              for (int attempt = 0; !pending.isEmpty(); attempt++) {
                if (attempt > 0) {
                  sendRetries.incrementAndGet();
                  assertTrue(attempt < 50, "a batch acknowledged within 50 attempts");
                  Thread.sleep(Math.min(1_000, 20L * attempt));
                }
                SendMessageBatchResponse sent;
                try {
                  List<SendMessageBatchRequestEntry> entries = List.copyOf(pending.values());
                  sent = sqs.sendMessageBatch(b -> b.queueUrl(toFifo ? fifo : standard).entries(entries));
                } catch (Exception throttledOrTimedOut) {
                  continue;
                }
                for (var s : sent.successful()) {
                  String body = pending.remove(s.id()).messageBody();
                  if (toFifo) {
                    fifoAcknowledged.put(body, s.messageId());
                    BigInteger sequence = new BigInteger(s.sequenceNumber());
                    fifoSequence.put(body, sequence);
                    fifoGroup.put(body, group);
                    fifoByGroup.computeIfAbsent(group, g -> new ConcurrentSkipListMap<>())
                        .put(sequence, body);
                  } else {
                    standardAcknowledged.put(s.messageId(), body);
                  }
                }
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
   * Receives 10 and deletes them in a batch until {@code stop}; before the kill, any error fails,
   * after it the consumer ends. {@code after}, if given, counts what it receives.
   */
  Void consumeStandard(int port, String url, int visibility, BooleanSupplier stop, Map<String, Integer> after) {
    try (SqsClient sqs = client(port)) {
      while (!stop.getAsBoolean()) {
        try {
          List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
              .visibilityTimeout(visibility)).messages();
          if (got.isEmpty()) {
            continue;
          }
          if (after != null) {
            got.forEach(m -> after.merge(m.messageId(), 1, Integer::sum));
          }
          got.forEach(m -> standardDeleting.add(m.messageId()));
          DeleteMessageBatchResponse deleted = deleteBatch(sqs, url, got);
          deleted.successful().forEach(s -> standardDeleted.add(got.get(Integer.parseInt(s.id())).messageId()));
          standardDeletedCount.addAndGet(deleted.successful().size());
        } catch (RuntimeException e) {
          if (after == null && killed.get()) {
            return null; // the kill
          }
          retryable(e);
        }
      }
    }
    return null;
  }

  /**
   * As {@link #consumeStandard}, for the FIFO queue, checking on every answer that the group's
   * order holds: a message comes only once every earlier message of its group was deleted (its
   * delete asked for) or comes earlier in the same answer. With {@code paced}, it keeps the FIFO
   * drain at about the standard drain's share, so that the kill comes mid-FIFO-drain too.
   */
  Void consumeFifo(int port, String url, int visibility, BooleanSupplier stop, boolean paced,
      Map<String, Integer> after) {
    try (SqsClient sqs = client(port)) {
      while (!stop.getAsBoolean()) {
        try {
          if (paced && (double) fifoDeletedCount.get() / FIFO_MESSAGES
              > (double) standardDeletedCount.get() / STANDARD_MESSAGES + 0.02) {
            Thread.sleep(10);
            continue;
          }
          List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
              .visibilityTimeout(visibility).messageSystemAttributeNamesWithStrings("MessageGroupId",
                  "SequenceNumber")).messages();
          if (got.isEmpty()) {
            continue;
          }
          checkOrder(got);
          if (after != null) {
            got.forEach(m -> after.merge(m.body(), 1, Integer::sum));
          }
          got.forEach(m -> fifoDeleting.add(m.body()));
          DeleteMessageBatchResponse deleted = deleteBatch(sqs, url, got);
          deleted.successful().forEach(s -> fifoDeleted.add(got.get(Integer.parseInt(s.id())).body()));
          fifoDeletedCount.addAndGet(deleted.successful().size());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return null;
        } catch (RuntimeException e) {
          if (after == null && killed.get()) {
            return null;
          }
          retryable(e);
        }
      }
    }
    return null;
  }

  /**
   * A 503 is the server saying "retry": nothing was received, and a delete it answered so stays
   * unacknowledged (asked for, not known done). Anything else fails the consumer.
   */
  void retryable(RuntimeException e) {
    if (!(e instanceof SqsException sqs) || sqs.statusCode() != 503) {
      throw e;
    }
    consumerRetries.incrementAndGet();
    try {
      Thread.sleep(100);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  void checkOrder(List<Message> got) {
    Set<String> earlierInAnswer = new HashSet<>();
    for (Message m : got) {
      String group = m.attributesAsStrings().get("MessageGroupId");
      BigInteger sequence = new BigInteger(m.attributesAsStrings().get("SequenceNumber"));
      List<String> problems = new ArrayList<>();
      if (!sequence.equals(fifoSequence.get(m.body())) || !group.equals(fifoGroup.get(m.body()))) {
        problems.add(m.body() + " came as " + group + "/" + sequence + ", sent as " + fifoGroup.get(m.body()) + "/"
            + fifoSequence.get(m.body()));
      } else {
        for (String before : fifoByGroup.get(group).headMap(sequence, false).values()) {
          if (!fifoDeleting.contains(before) && !earlierInAnswer.contains(before)) {
            problems.add(m.body() + " (" + group + "/" + sequence + ") came while " + before + " was neither deleted"
                + " nor earlier in the answer" + (killed.get() ? " (after the restart)" : ""));
            break;
          }
        }
      }
      earlierInAnswer.add(m.body());
      if (!problems.isEmpty()) {
        synchronized (fifoOrderViolations) {
          fifoOrderViolations.addAll(problems);
        }
      }
    }
  }

  static DeleteMessageBatchResponse deleteBatch(SqsClient sqs, String url, List<Message> got) {
    List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
    for (int i = 0; i < got.size(); i++) {
      entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(i))
          .receiptHandle(got.get(i).receiptHandle()).build());
    }
    return sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(entries));
  }

  static Map<String, String> counts(SqsClient sqs, String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed")).attributesAsStrings();
  }

  static int total(Map<String, String> counts) {
    return counts.values().stream().mapToInt(Integer::parseInt).sum();
  }
}
