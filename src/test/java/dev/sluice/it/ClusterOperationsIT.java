package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.it.ClusterProcesses.Node;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Cluster mode's operations, under one continuous load through a client that reaches whichever
 * nodes are ready (as a Kubernetes Service does), with the SDK's default retries, every
 * acknowledgment, delivery and failed call recorded, on a standard and a FIFO queue:
 *
 * <ol>
 *   <li>a fourth node joins and takes its share of the shards;
 *   <li>all four are restarted one by one, each stopped with SIGTERM (it hands its shards over
 *       first) and started again;
 *   <li>until here no client call failed; then the node holding the queues is killed with SIGKILL,
 *       and each queue serves sends and receives again within 5 s of the kill.
 * </ol>
 *
 * Afterwards: no acknowledged message is lost, each FIFO group's messages come in the order of
 * their sequence numbers, and no FIFO message is delivered while an earlier delivery of it is in
 * flight (its visibility running, not deleted).
 */
@NeedsTools(Tool.POSTGRESQL)
@Isolated
class ClusterOperationsIT {
  static final long FAILOVER_TARGET_MILLIS = 5_000;
  /**
   * Long enough that a delete still finds its message in flight when a hand-over delays it by a few
   * seconds (a forwarded call waits up to cluster.retryMillis for its shard).
   */
  static final int VISIBILITY_SECONDS = 8;
  static final int GROUPS = 4;
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

  /**
   * One delivery: when its receive was answered, and until when it was surely hidden (its
   * visibility began after the receive was asked, so it ends no sooner than that plus the timeout),
   * and when its delete was answered.
   */
  static final class Delivery {
    final long receivedAt = System.nanoTime();
    final long hiddenUntil;
    volatile long deletedAt = Long.MAX_VALUE;

    Delivery(long askedAt) {
      hiddenUntil = askedAt + TimeUnit.SECONDS.toNanos(VISIBILITY_SECONDS);
    }
  }

  /** What the clients saw. */
  static final class Observed {
    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final Map<String, BigInteger> sequenceOf = new ConcurrentHashMap<>();
    final Map<String, List<Delivery>> deliveries = new ConcurrentHashMap<>();
    final Map<String, List<String>> groupOrder = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  }

  @Test
  void aJoinAndARollingRestartFailNoCallAndAKilledNodesQueuesServeAgainWithinFiveSeconds() throws Exception {
    // Nodes start without the class archive: faster starts bring the rolling restart's steps closer,
    // and FIFO deletes right after a hand-over were then refused as expired (ServerJar.loggingUnarchived).
    try (ClusterProcesses cluster = ClusterProcesses.start(pg.url(), vertx, 4, 3, Map.of(), false);
        ReadyNodes service = new ReadyNodes(cluster.httpPorts())) {
      cluster.awaitBalanced(Duration.ofSeconds(90));
      String standard = "operations";
      String fifo = "operations.fifo";
      Observed seen = new Observed();
      AtomicBoolean producing = new AtomicBoolean(true);
      AtomicBoolean consuming = new AtomicBoolean(true);
      AtomicInteger next = new AtomicInteger();
      ExecutorService pool = Executors.newCachedThreadPool();
      List<Future<?>> work = new ArrayList<>();
      try (SqsClient sqs = client(cluster, service)) {
        sqs.createQueue(b -> b.queueName(standard));
        sqs.createQueue(b -> b.queueName(fifo).attributesWithStrings(Map.of("FifoQueue", "true")));
      }
      for (int t = 0; t < 2; t++) {
        for (String q : List.of(standard, fifo)) {
          work.add(pool.submit(() -> produce(cluster, service, q, next, seen, producing)));
          work.add(pool.submit(() -> consume(cluster, service, q, seen, consuming)));
        }
      }
      Thread.sleep(1000);

      // 1. A fourth node joins.
      cluster.startNode(3);
      QuickstartIT.awaitPort(cluster.nodes.get(3).httpPort(), cluster.nodes.get(3).process());
      cluster.awaitBalanced(Duration.ofSeconds(60));
      System.out.println("ClusterOperationsIT: a fourth node joined; " + seen.acknowledged.size() + " sends so far");

      // 2. A rolling restart, one node at a time, each next one as soon as the last is ready (as a
      // Deployment's rolling update goes: it waits for readiness, not for the shards to settle).
      for (int i = 0; i < 4; i++) {
        Node n = cluster.nodes.get(i);
        long stopping = System.nanoTime();
        assertEquals(0, cluster.stop(n), n.name() + " stopped cleanly");
        long stoppedMillis = (System.nanoTime() - stopping) / 1_000_000;
        Node again = cluster.startNode(i);
        QuickstartIT.awaitPort(again.httpPort(), again.process());
        System.out.println("ClusterOperationsIT: " + n.name() + " stopped in " + stoppedMillis + " ms and is back");
      }
      cluster.awaitBalanced(Duration.ofSeconds(60));
      assertEquals(List.of(), List.copyOf(seen.failures), "no client call failed through the join and the restarts");

      // 3. The node holding the FIFO queue is killed.
      Node victim = cluster.ownerOf(fifo);
      long killedAt = System.nanoTime();
      cluster.kill(victim);
      long servedAfter = cluster.firstServed(fifo, killedAt);
      System.out.println("ClusterOperationsIT: " + fifo + " served again " + servedAfter + " ms after the kill");
      assertTrue(servedAfter <= FAILOVER_TARGET_MILLIS, fifo + " served again only " + servedAfter
          + " ms after the kill");
      Thread.sleep(500);
      producing.set(false);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!seen.deliveries.keySet().containsAll(seen.acknowledged) && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      consuming.set(false);
      for (Future<?> f : work) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdownNow();
      check(seen);
    }
  }

  static void check(Observed seen) {
    Set<String> lost = new TreeSet<>(seen.acknowledged);
    lost.removeAll(seen.deliveries.keySet());
    assertEquals(Set.of(), lost, "every acknowledged message was delivered (" + seen.acknowledged.size()
        + " acknowledged)");
    assertTrue(seen.acknowledged.size() > 200, seen.acknowledged.size() + " messages acknowledged");
    seen.groupOrder.forEach((group, bodies) -> {
      List<String> firsts = new ArrayList<>();
      for (String body : bodies) {
        if (!firsts.contains(body) && seen.sequenceOf.containsKey(body)) {
          firsts.add(body);
        }
      }
      List<String> sorted = new ArrayList<>(firsts);
      sorted.sort((a, b) -> seen.sequenceOf.get(a).compareTo(seen.sequenceOf.get(b)));
      assertEquals(sorted, firsts, "group " + group + ": first deliveries in the order of their sequence numbers");
    });
    seen.deliveries.forEach((body, list) -> {
      if (body.startsWith("f")) {
        List<Delivery> ds = new ArrayList<>(list);
        ds.sort((a, b) -> Long.compare(a.receivedAt, b.receivedAt));
        for (int i = 1; i < ds.size(); i++) {
          Delivery before = ds.get(i - 1);
          assertTrue(ds.get(i).receivedAt >= Math.min(before.hiddenUntil, before.deletedAt), body
              + " delivered again " + (before.hiddenUntil - ds.get(i).receivedAt) / 1_000_000 + " ms before an"
              + " earlier delivery of it could have become visible, undeleted");
        }
      }
    });
  }

  /** A client with the SDK's default retries, through whichever nodes are ready. */
  static SqsClient client(ClusterProcesses cluster, ReadyNodes service) {
    return SqsClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + cluster.httpPorts().get(0)))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(service).build();
  }

  static String url(ClusterProcesses cluster, String queue) {
    return "http://127.0.0.1:" + cluster.httpPorts().get(0) + "/000000000000/" + queue;
  }

  static Void produce(ClusterProcesses cluster, ReadyNodes service, String queue, AtomicInteger next,
      Observed seen, AtomicBoolean producing) throws Exception {
    boolean fifo = queue.endsWith(".fifo");
    try (SqsClient sqs = client(cluster, service)) {
      while (producing.get()) {
        int i = next.getAndIncrement();
        String body = (fifo ? "f" : "s") + "-" + i;
        try {
          String sequence = sqs.sendMessage(b -> b.queueUrl(url(cluster, queue)).messageBody(body)
              .messageGroupId(fifo ? "g" + (i % GROUPS) : null).messageDeduplicationId(fifo ? body : null))
              .sequenceNumber();
          if (sequence != null) {
            seen.sequenceOf.put(body, new BigInteger(sequence));
          }
          seen.acknowledged.add(body);
        } catch (SdkException failed) {
          seen.failures.add("SendMessage " + body + ": " + failed.getMessage());
          Thread.sleep(100);
        }
      }
    }
    return null;
  }

  static Void consume(ClusterProcesses cluster, ReadyNodes service, String queue, Observed seen,
      AtomicBoolean consuming) throws Exception {
    try (SqsClient sqs = client(cluster, service)) {
      while (consuming.get()) {
        List<Message> got;
        long askedAt = System.nanoTime();
        try {
          got = sqs.receiveMessage(b -> b.queueUrl(url(cluster, queue)).maxNumberOfMessages(10).waitTimeSeconds(1)
              .visibilityTimeout(VISIBILITY_SECONDS)
              .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID)).messages();
        } catch (SdkException failed) {
          seen.failures.add("ReceiveMessage: " + failed.getMessage());
          Thread.sleep(100);
          continue;
        }
        for (Message m : got) {
          Delivery d = new Delivery(askedAt);
          seen.deliveries.computeIfAbsent(m.body(), b -> Collections.synchronizedList(new ArrayList<>())).add(d);
          String group = m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
          if (group != null) {
            seen.groupOrder.computeIfAbsent(group, g -> Collections.synchronizedList(new ArrayList<>())).add(m.body());
          }
          try {
            sqs.deleteMessage(b -> b.queueUrl(url(cluster, queue)).receiptHandle(m.receiptHandle()));
            d.deletedAt = System.nanoTime();
          } catch (SdkException failed) {
            seen.failures.add("DeleteMessage " + m.body() + ": " + failed.getMessage());
          }
        }
      }
    }
    return null;
  }
}
