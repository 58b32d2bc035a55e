package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The outbox relay's promise under failure, checked from outside: the packaged jar relays an
 * application's outbox (a PostgreSQL of its own) into a durable queue (a second PostgreSQL) while
 * the application commits 20,000 rows and rolls some back; Sluice is killed with {@code kill -9}
 * at random moments and started again, and the application's database is restarted once mid-relay.
 * A consumer receives and deletes as a service would. Every committed row is exactly one message
 * (one MessageId per row, however often a crash made the queue deliver it again), nothing rolled
 * back is a message, and FIFO order per group holds across batches and crashes. Two Sluice
 * processes on one source (each with its own store) never both send a row.
 */
@NeedsTools(Tool.POSTGRESQL)
@Isolated
class OutboxCrashIT {
  static final int ROWS = 20_000;
  static final int PER_TRANSACTION = 500;
  static final int GROUPS = 8;

  static ThrowawayPostgres app;
  static ThrowawayPostgres store;
  static ThrowawayPostgres otherStore;
  static Vertx vertx;
  static Pool appPool;

  @BeforeAll
  static void start() throws Exception {
    app = ThrowawayPostgres.start();
    store = ThrowawayPostgres.start();
    otherStore = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
    appPool = PgBuilder.pool().with(new PoolOptions().setMaxSize(2))
        .connectingTo(PgConnectOptions.fromUri(app.url()).setReconnectAttempts(0)).using(vertx).build();
  }

  @AfterAll
  static void stop() throws Exception {
    appPool.close().await(10, TimeUnit.SECONDS);
    vertx.close().await(10, TimeUnit.SECONDS);
    app.close();
    store.close();
    otherStore.close();
  }

  /** The source every server here relays: the application's database, its table made at start-up. */
  static String source(int batchSize) {
    // The user is a key of its own: a source's url may not carry one (OutboxSource).
    return "[{\"name\":\"shop\",\"url\":\"postgresql://127.0.0.1:" + app.port() + "/postgres\",\"user\":\"postgres\","
        + "\"createTable\":true,\"batchSize\":" + batchSize
        + ",\"pollIntervalMillis\":200}]";
  }

  static Process server(int port, ThrowawayPostgres own, Path log) throws Exception {
    Map<String, String> env = new HashMap<>(Map.of("SLUICE_HTTP_PORT", Integer.toString(port),
        "SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", own.url(), "SLUICE_PG_LEASE_MILLIS", "2000",
        "SLUICE_OUTBOX_SOURCES", source(250),
        "SLUICE_QUEUES", "[{\"name\":\"orders\"},{\"name\":\"orders.fifo\",\"attributes\":{\"FifoQueue\":\"true\","
            + "\"ContentBasedDeduplication\":\"true\",\"VisibilityTimeout\":\"5\"}}]"));
    Process p = ServerJar.logging(log, env).start();
    QuickstartIT.awaitPort(port, p);
    return p;
  }

  static SqsClient client(int port) {
    return SqsClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(10)).build())
        .build();
  }

  /**
   * Commits the rows {@code from}..{@code to} (exclusive) PER_TRANSACTION at a time, every other
   * row to the FIFO queue in one of GROUPS groups; between two commits a transaction of the same
   * size is rolled back. A commit the database refused (it was being restarted) is tried again.
   */
  static void commitRows(int from, int to) throws Exception {
    for (int first = from; first < to; first += PER_TRANSACTION) {
      int last = Math.min(to, first + PER_TRANSACTION);
      for (boolean rollBack : new boolean[] {true, false}) {
        int f = first;
        while (true) {
          try {
            appPool.withConnection(c -> c.begin().compose(tx -> c.preparedQuery(
                    "INSERT INTO sluice_outbox (queue_name, body, message_group_id) SELECT CASE WHEN n % 2 = 0"
                        + " THEN 'orders' ELSE 'orders.fifo' END, $3 || n, CASE WHEN n % 2 = 1 THEN 'g' || (n % "
                        + GROUPS + ") END FROM generate_series($1::int, $2::int) n")
                .execute(Tuple.of(f, last - 1, rollBack ? "rolled-back-" : "row-"))
                .compose(rows -> rollBack ? tx.rollback() : tx.commit())))
                .await(20, TimeUnit.SECONDS);
            break;
          } catch (Exception restarting) {
            Thread.sleep(100);
          }
        }
      }
    }
  }

  /** What a consumer saw: each body's message ids, and the FIFO bodies in the order received per group. */
  static final class Seen {
    final Map<String, Set<String>> idsByBody = new ConcurrentHashMap<>();
    final Map<String, List<Integer>> fifoOrder = new ConcurrentHashMap<>();

    void add(Message m, boolean fifo) {
      boolean first = idsByBody.computeIfAbsent(m.body(), b -> ConcurrentHashMap.newKeySet()).add(m.messageId());
      if (fifo && first && idsByBody.get(m.body()).size() == 1) {
        String group = m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
        fifoOrder.computeIfAbsent(group, g -> new ArrayList<>()).add(Integer.parseInt(m.body().substring(4)));
      }
    }
  }

  /** Receives and deletes from both queues until {@code done}, riding out the server's absences. */
  static CompletableFuture<Void> consume(AtomicReference<Integer> port, Seen seen, AtomicBoolean done) {
    return CompletableFuture.runAsync(() -> {
      while (!done.get()) {
        try (SqsClient sqs = client(port.get())) {
          while (!done.get()) {
            for (String queue : List.of("orders", "orders.fifo")) {
              String url = "http://127.0.0.1:" + port.get() + "/000000000000/" + queue;
              List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
                  .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID)).messages();
              for (Message m : got) {
                seen.add(m, queue.endsWith(".fifo"));
                sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
              }
            }
          }
        } catch (RuntimeException serverAway) {
          sleep(200);
        }
      }
    });
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static long outboxRows(String table) throws Exception {
    return appPool.query("SELECT count(*) FROM " + table).execute().await(10, TimeUnit.SECONDS).iterator().next()
        .getLong(0);
  }

  /** Every committed row was one message, nothing rolled back was one, and each FIFO group kept its order. */
  static void assertExactlyOnce(Seen seen, int rows) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while ((seen.idsByBody.size() < rows || outboxRows("sluice_outbox") > 0) && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    Thread.sleep(1500); // a duplicate would arrive after the last original
    Map<String, Integer> doubled = new TreeMap<>();
    seen.idsByBody.forEach((body, ids) -> {
      if (ids.size() != 1) {
        doubled.put(body, ids.size());
      }
    });
    assertEquals(Map.of(), doubled, "rows that became more than one message");
    List<String> missing = new ArrayList<>();
    for (int n = 0; n < rows; n++) {
      if (!seen.idsByBody.containsKey("row-" + n)) {
        missing.add("row-" + n);
      }
    }
    assertEquals(List.of(), missing.subList(0, Math.min(20, missing.size())), missing.size() + " rows lost");
    assertTrue(seen.idsByBody.keySet().stream().noneMatch(b -> b.startsWith("rolled-back-")),
        "a rolled-back row was relayed");
    assertEquals(0, outboxRows("sluice_outbox"));
    assertEquals(0, outboxRows("sluice_outbox_dead"), "no committed row is poisoned");
    seen.fifoOrder.forEach((group, order) -> {
      List<Integer> sorted = new ArrayList<>(order);
      sorted.sort(null);
      assertEquals(sorted, order, "FIFO order of group " + group);
    });
  }

  @Test
  void everyCommittedRowIsOneMessageThroughKillNineAndTheApplicationDatabaseRestarting() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("outbox-crash-");
    AtomicReference<Integer> at = new AtomicReference<>(port);
    Process server = server(port, store, log);
    Seen seen = new Seen();
    AtomicBoolean done = new AtomicBoolean();
    CompletableFuture<Void> consumer = consume(at, seen, done);
    CompletableFuture<Void> application = CompletableFuture.runAsync(() -> {
      try {
        commitRows(0, ROWS);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Random random = new Random(Long.getLong("outbox.seed", System.nanoTime()));
    try {
      for (int crash = 0; crash < 4; crash++) {
        Thread.sleep(300 + random.nextInt(1200));
        if (crash == 2) {
          app.stopNow(); // the application's database goes away mid-relay, and comes back
          Thread.sleep(1000);
          app.restart();
          continue;
        }
        server.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
        assertTrue(server.waitFor(10, TimeUnit.SECONDS));
        server = server(port, store, log);
      }
      application.get(120, TimeUnit.SECONDS);
      assertExactlyOnce(seen, ROWS);
    } finally {
      done.set(true);
      consumer.get(30, TimeUnit.SECONDS);
      server.destroy();
      server.waitFor(15, TimeUnit.SECONDS);
    }
    assertEquals(List.of(), Files.readAllLines(log).stream()
        .filter(l -> l.contains("SEVERE") || l.contains("blocked")).toList());
  }

  @Test
  void twoSluiceProcessesOnOneSourceNeverBothSendARow() throws Exception {
    int portA = QuickstartIT.freePort();
    int portB = QuickstartIT.freePort();
    Path log = ServerJar.newLog("outbox-two-");
    Process a = server(portA, store, log);
    Process b = server(portB, otherStore, log);
    Seen seen = new Seen();
    AtomicBoolean done = new AtomicBoolean();
    List<CompletableFuture<Void>> consumers = List.of(consume(new AtomicReference<>(portA), seen, done),
        consume(new AtomicReference<>(portB), seen, done));
    try {
      appPool.query("DELETE FROM sluice_outbox").execute().await(10, TimeUnit.SECONDS); // made by the first start
      commitRows(0, 5_000);
      assertExactlyOnce(seen, 5_000);
    } finally {
      done.set(true);
      for (CompletableFuture<Void> c : consumers) {
        c.get(30, TimeUnit.SECONDS);
      }
      a.destroy();
      b.destroy();
      a.waitFor(15, TimeUnit.SECONDS);
      b.waitFor(15, TimeUnit.SECONDS);
    }
  }
}
