package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.persistence.MessageContent;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SqsException;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 14, item 2 (split brain on lock loss): two servers, the packaged jar as child processes, on
 * one PostgreSQL. A owns the database, B waits for it. Producers send numbered messages to a
 * standard and a FIFO queue through whichever server answers, consumers receive from both and
 * delete; every answer is recorded with its server and times. Then A loses its lock: its backend
 * is terminated from PostgreSQL, once while A is frozen (SIGSTOP, thawed after B has taken over)
 * and once while it runs. Afterwards: A answered nothing after B's first answer (save what was
 * already under way when it froze), A exited with the fenced exit code, every acknowledged send was
 * delivered or is still stored, and no FIFO message was delivered again after its delete was
 * acknowledged.
 */
@NeedsTools(Tool.POSTGRESQL)
@Isolated
class SplitBrainIT {
  static final long LEASE_MILLIS = 1500;
  /** Main's exit code for a server fenced off its database. */
  static final int FENCED_EXIT = 3;
  static final int PRODUCERS = 4;
  static final int CONSUMERS = 4;
  static final int GROUPS = 8;

  static ThrowawayPostgres pg;
  static Vertx vertx;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  @Test
  void anOwnerFrozenWhileItLosesItsLockNeverAnswersAfterTheServerThatTookOver() throws Exception {
    new Scenario("frozen", true).run();
  }

  @Test
  void anOwnerThatLosesItsLockWhileRunningStopsServingBeforeAnotherServerTakesOver() throws Exception {
    new Scenario("running", false).run();
  }

  /** One server: its process, its client and where it logs. */
  record Server(String name, int port, Process process, SqsAsyncClient sqs, Path log) {
    String url(String queue) {
      return "http://127.0.0.1:" + port + "/000000000000/" + queue;
    }
  }

  /** A successful answer: which server gave it, when its request left and when it came back. */
  record Answer(String server, String action, long sentNanos, long answeredNanos) {}

  record Delivery(String body, String server, long sentNanos) {}

  static final class Scenario {
    final String database;
    final boolean freeze;
    final AtomicBoolean producing = new AtomicBoolean(true);
    final AtomicBoolean consuming = new AtomicBoolean(true);
    final AtomicInteger next = new AtomicInteger();
    final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    final Map<String, Answer> acknowledged = new ConcurrentHashMap<>();
    final Queue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
    /** FIFO message body → when its delete was acknowledged. */
    final Map<String, Long> deleted = new ConcurrentHashMap<>();
    Server a;
    Server b;
    Pool db;

    Scenario(String name, boolean freeze) {
      this.database = "split_" + name;
      this.freeze = freeze;
    }

    void run() throws Exception {
      Pool admin = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
      admin.query("CREATE DATABASE " + database).execute().await(10, TimeUnit.SECONDS);
      admin.close().await(10, TimeUnit.SECONDS);
      PgConnectOptions options = PgConnectOptions.fromUri(pg.url()).setDatabase(database);
      db = PgBuilder.pool().connectingTo(options).using(vertx).build();
      String pgUrl = pg.url().substring(0, pg.url().lastIndexOf('/') + 1) + database;
      a = start("A", pgUrl);
      QuickstartIT.awaitPort(a.port(), a.process());
      b = start("B", pgUrl);
      HttpResponse<String> waiting = HealthIT.awaitAnswer(URI.create("http://127.0.0.1:" + b.port() + "/health/ready"));
      assertEquals(503, waiting.statusCode(), "B waits for the database: " + waiting.body());
      List<Thread> threads = new ArrayList<>();
      long frozenAt = Long.MAX_VALUE;
      try {
        a.sqs().createQueue(q -> q.queueName("split")).join();
        a.sqs().createQueue(q -> q.queueName("split.fifo").attributesWithStrings(Map.of("FifoQueue", "true"))).join();
        for (int i = 0; i < PRODUCERS; i++) {
          threads.add(thread("producer-" + i, this::produce));
        }
        for (int i = 0; i < CONSUMERS; i++) {
          threads.add(thread("consumer-" + i, this::consume));
        }
        awaitCondition(() -> acknowledged.size() >= 300, 30, "300 sends acknowledged by A");

        if (freeze) {
          frozenAt = System.nanoTime();
          signal("STOP", a.process());
        }
        loseTheLockUntilBTakesOver();
        if (freeze) {
          awaitCondition(() -> firstSuccess("B") != Long.MAX_VALUE, 30, "B answers");
          Thread.sleep(500);
          signal("CONT", a.process());
        }
        a.process().waitFor(15, TimeUnit.SECONDS);
        Thread.sleep(2500); // traffic goes on, on B alone
      } finally {
        producing.set(false);
        Thread.sleep(300);
        drainB();
        consuming.set(false);
        for (Thread t : threads) {
          t.join(30_000);
        }
        if (a.process().isAlive()) {
          signal("CONT", a.process());
          a.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        b.process().destroy(); // SIGTERM: a clean stop writes everything out
        assertTrue(b.process().waitFor(20, TimeUnit.SECONDS), "B stopped");
        a.sqs().close();
        b.sqs().close();
      }
      try {
        check(frozenAt);
      } finally {
        db.close().await(10, TimeUnit.SECONDS);
      }
    }

    Server start(String name, String pgUrl) throws Exception {
      int port = QuickstartIT.freePort();
      Path log = ServerJar.newLog("split-" + name + "-");
      ProcessBuilder pb = ServerJar.logging(log, Map.of("SLUICE_HTTP_PORT", Integer.toString(port), "SLUICE_STORAGE", "postgres",
          "SLUICE_PG_URL", pgUrl, "SLUICE_PG_LEASE_MILLIS", Long.toString(LEASE_MILLIS),
          "SLUICE_SHUTDOWN_GRACE_MILLIS", "3000"));
      Process p = pb.start();
      SqsAsyncClient sqs = SqsAsyncClient.builder()
          .endpointOverride(URI.create("http://127.0.0.1:" + port))
          .region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
          .overrideConfiguration(o -> o.retryPolicy(RetryPolicy.none()))
          .httpClient(NettyNioAsyncHttpClient.builder().maxConcurrency(32)
              .connectionTimeout(Duration.ofSeconds(1)).readTimeout(Duration.ofSeconds(3)).build())
          .build();
      return new Server(name, port, p, sqs, log);
    }

    static Thread thread(String name, Runnable body) {
      Thread t = new Thread(body, name);
      t.setDaemon(true);
      t.start();
      return t;
    }

    static void signal(String signal, Process p) throws Exception {
      assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor());
    }

    /**
     * Terminates A's session holding the ownership lock (found by the application name Sluice
     * gives its sessions), again whenever A has taken it back, until B is ready.
     */
    void loseTheLockUntilBTakesOver() throws Exception {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      URI ready = URI.create("http://127.0.0.1:" + b.port() + "/health/ready");
      boolean terminated = false;
      while (HealthIT.awaitAnswer(ready).statusCode() != 200) {
        assertTrue(System.nanoTime() < end, "B took over");
        long n = db.query("SELECT count(pg_terminate_backend(l.pid)) FROM pg_locks l"
            + " JOIN pg_stat_activity s ON s.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted"
            + " AND l.objsubid = 1 AND ((l.classid::bigint << 32) | l.objid::bigint) = x'511ce0002'::bigint"
            + " AND s.application_name LIKE '%pid " + a.process().pid() + "'").execute()
            .await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
        terminated |= n > 0;
        Thread.sleep(200);
      }
      assertTrue(terminated, "A's lock session was found and terminated");
    }

    /** The servers in the order to try: the one that answered last first. */
    List<Server> order(Server last) {
      return last == b ? List.of(b, a) : List.of(a, b);
    }

    void produce() {
      Server last = a;
      while (producing.get()) {
        int n = next.getAndIncrement();
        boolean fifo = n % 2 == 1;
        String body = (fifo ? "f" : "s") + n;
        boolean sent = false;
        while (!sent && producing.get()) {
          for (Server s : order(last)) {
            long at = System.nanoTime();
            try {
              if (fifo) {
                s.sqs().sendMessage(m -> m.queueUrl(s.url("split.fifo")).messageBody(body)
                    .messageGroupId("g" + n % GROUPS).messageDeduplicationId(body)).join();
              } else {
                s.sqs().sendMessage(m -> m.queueUrl(s.url("split")).messageBody(body)).join();
              }
              Answer answer = new Answer(s.name(), "SendMessage " + body, at, System.nanoTime());
              answers.add(answer);
              acknowledged.putIfAbsent(body, answer);
              last = s;
              sent = true;
              break;
            } catch (RuntimeException refusedOrUnreachable) {
              pause(20);
            }
          }
        }
      }
    }

    void consume() {
      Server last = a;
      while (consuming.get()) {
        for (String queue : List.of("split", "split.fifo")) {
          for (Server s : order(last)) {
            long at = System.nanoTime();
            List<Message> got;
            try {
              got = s.sqs().receiveMessage(r -> r.queueUrl(s.url(queue)).maxNumberOfMessages(10).waitTimeSeconds(1)
                  .visibilityTimeout(600)).join().messages();
            } catch (RuntimeException refusedOrUnreachable) {
              pause(20);
              continue;
            }
            answers.add(new Answer(s.name(), "ReceiveMessage " + got.size(), at, System.nanoTime()));
            last = s;
            for (Message m : got) {
              deliveries.add(new Delivery(m.body(), s.name(), at));
            }
            for (Message m : got) {
              delete(s, queue, m);
            }
            break;
          }
        }
      }
    }

    /** Deletes where it was received, else on the other server (which knows the same handles). */
    void delete(Server from, String queue, Message m) {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < end && consuming.get()) {
        for (Server s : order(from)) {
          long at = System.nanoTime();
          try {
            s.sqs().deleteMessage(d -> d.queueUrl(s.url(queue)).receiptHandle(m.receiptHandle())).join();
            long answered = System.nanoTime();
            answers.add(new Answer(s.name(), "DeleteMessage " + m.body(), at, answered));
            if (queue.endsWith(".fifo")) {
              deleted.putIfAbsent(m.body(), answered);
            }
            return;
          } catch (CompletionException e) {
            if (e.getCause() instanceof SqsException refused && refused.statusCode() != 503) {
              return; // the handle is no longer valid there: the message comes back and is deleted then
            }
            // refused for now, or unreachable: the other server, then again
          }
          pause(20);
        }
      }
    }

    /** Once producers have stopped: consumers empty what B holds (visible messages). */
    void drainB() throws Exception {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      int quiet = 0;
      while (quiet < 3 && System.nanoTime() < end) {
        int before = deliveries.size();
        Thread.sleep(700);
        quiet = deliveries.size() == before ? quiet + 1 : 0;
      }
    }

    long firstSuccess(String server) {
      long first = Long.MAX_VALUE;
      for (Answer x : answers) {
        if (x.server().equals(server)) {
          first = Math.min(first, x.answeredNanos());
        }
      }
      return first;
    }

    void check(long frozenAt) throws Exception {
      long bFirst = firstSuccess("B");
      assertTrue(bFirst != Long.MAX_VALUE, "B answered after taking over");
      // Writes are acknowledged by one server at a time: nothing from A after B's first answer.
      // A frozen process may still write out an answer it had finished before it froze; a request
      // that reached it after that gets none.
      List<Answer> late = answers.stream()
          .filter(x -> x.server().equals("A") && x.answeredNanos() > bFirst && x.sentNanos() >= frozenAt).toList();
      assertEquals(List.of(), late, "answers of A after B's first answer");
      if (!freeze) {
        assertEquals(List.of(), answers.stream().filter(x -> x.server().equals("A") && x.answeredNanos() > bFirst)
            .toList(), "a running A stops answering before B starts");
      }
      assertTrue(!a.process().isAlive() && a.process().exitValue() == FENCED_EXIT,
          "A exits with the fenced exit code; log:\n" + Files.readString(a.log()));

      // Nothing acknowledged is lost: delivered, or still stored (in flight with its 600 s visibility).
      Set<String> stored = new HashSet<>();
      for (Row r : db.query("SELECT content FROM sluice_messages").execute().await(10, TimeUnit.SECONDS)) {
        stored.add(MessageContent.decode(r.getBuffer(0).getBytes()).body());
      }
      Set<String> lost = new HashSet<>(acknowledged.keySet());
      deliveries.forEach(d -> lost.remove(d.body()));
      lost.removeAll(stored);
      assertEquals(Set.of(), lost, "acknowledged sends neither delivered nor stored");

      // A FIFO message whose delete was acknowledged is never delivered again.
      List<Delivery> resurrected = deliveries.stream()
          .filter(d -> deleted.containsKey(d.body()) && d.sentNanos() > deleted.get(d.body())).toList();
      assertEquals(List.of(), resurrected, "FIFO messages delivered after their delete was acknowledged");

      long byA = acknowledged.values().stream().filter(x -> x.server().equals("A")).count();
      long byB = acknowledged.size() - byA;
      assertTrue(byA >= 300 && byB > 0, "sends acknowledged by A: " + byA + ", by B: " + byB);
      assertEquals(List.of(), Files.readAllLines(b.log()).stream()
          .filter(l -> l.contains("SEVERE") || l.contains("blocked")).toList(), "B's log");
      System.out.printf("%s: %d sends acknowledged (A %d, B %d), %d deliveries, %d FIFO deletes acknowledged,"
              + " %d answers of A after B's first%n", database, acknowledged.size(), byA, byB, deliveries.size(),
          deleted.size(), answers.stream().filter(x -> x.server().equals("A") && x.answeredNanos() > bFirst).count());
    }
  }

  static void awaitCondition(java.util.function.BooleanSupplier condition, int seconds, String what)
      throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < end, what);
      Thread.sleep(20);
    }
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
