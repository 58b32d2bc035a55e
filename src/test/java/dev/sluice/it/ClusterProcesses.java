package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.QueueKey;
import dev.sluice.engine.ShardRouter;
import dev.sluice.testtools.ServerJar;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A cluster of packaged servers as child processes on 127.0.0.1 sharing one PostgreSQL database,
 * each started the way a user starts a node (environment only), small enough for two cores (one
 * event loop, a small serial-collected heap, no JIT beyond C1). What the nodes hold is read from
 * the lease table, as an operator would.
 */
final class ClusterProcesses implements AutoCloseable {
  static final int SHARDS = 16;

  /** One node: its process, ports and log. */
  record Node(String name, int httpPort, int hazelcastPort, Process process, Path log) {
    long pid() {
      return process.pid();
    }

    URI endpoint() {
      return URI.create("http://127.0.0.1:" + httpPort);
    }

    String url(String queue) {
      return endpoint() + "/000000000000/" + queue;
    }

    /** A client with the SDK's default retries. */
    SqsClient client() {
      return SqsClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
          .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
          .build();
    }

    /** A client that gives up at the first error. */
    SqsClient clientWithoutRetries() {
      return SqsClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
          .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
          .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
          .build();
    }
  }

  final String pgUrl;
  final Pool db;
  final List<Node> nodes = new ArrayList<>();
  private final int[] httpPorts;
  private final int[] hazelcastPorts;
  private final Map<String, String> extraEnv;
  /** Whether nodes start from the class archive ({@link ServerJar#loggingUnarchived}). */
  private final boolean archived;

  private ClusterProcesses(String pgUrl, Vertx vertx, int size, Map<String, String> extraEnv, boolean archived)
      throws IOException {
    this.archived = archived;
    this.pgUrl = pgUrl;
    this.db = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pgUrl)).using(vertx).build();
    this.extraEnv = extraEnv;
    httpPorts = new int[size];
    hazelcastPorts = new int[size];
    for (int i = 0; i < size; i++) {
      httpPorts[i] = QuickstartIT.freePort();
      hazelcastPorts[i] = portBelowEphemeralRange();
    }
  }

  /**
   * A free port below Linux's ephemeral range (32768 and up): Hazelcast binds it only after the
   * node's start, seconds later, and a port from that range may meanwhile be taken by any outgoing
   * connection on the machine.
   */
  static int portBelowEphemeralRange() throws IOException {
    java.util.Random random = new java.util.Random();
    for (int tries = 0; tries < 100; tries++) {
      int port = 20_000 + random.nextInt(12_000);
      try (java.net.ServerSocket s = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException taken) {
        // another one
      }
    }
    throw new IOException("no free port between 20000 and 32000");
  }

  /** Starts {@code size} nodes at once; answers when every one is ready. */
  static ClusterProcesses start(String pgUrl, Vertx vertx, int size, Map<String, String> extraEnv) throws Exception {
    return start(pgUrl, vertx, size, size, extraEnv);
  }

  /**
   * A cluster of {@code size} nodes (each knows all the others' addresses) of which the first
   * {@code started} start now; answers when those are ready.
   */
  static ClusterProcesses start(String pgUrl, Vertx vertx, int size, int started, Map<String, String> extraEnv)
      throws Exception {
    return start(pgUrl, vertx, size, started, extraEnv, true);
  }

  /** As {@link #start(String, Vertx, int, int, Map)}; {@code archived} false: nodes start at the old speed. */
  static ClusterProcesses start(String pgUrl, Vertx vertx, int size, int started, Map<String, String> extraEnv,
      boolean archived) throws Exception {
    ClusterProcesses c = new ClusterProcesses(pgUrl, vertx, size, extraEnv, archived);
    for (int i = 0; i < size; i++) {
      c.nodes.add(null);
    }
    for (int i = 0; i < started; i++) {
      c.startNode(i);
    }
    for (int i = 0; i < started; i++) {
      QuickstartIT.awaitPort(c.nodes.get(i).httpPort(), c.nodes.get(i).process());
    }
    return c;
  }

  /** The HTTP ports of every node, started or not. */
  List<Integer> httpPorts() {
    List<Integer> out = new ArrayList<>();
    for (int p : httpPorts) {
      out.add(p);
    }
    return out;
  }

  /** Stops a node as an operator does (SIGTERM) and waits for it to exit; answers its exit code. */
  int stop(Node n) throws Exception {
    n.process().destroy();
    assertTrue(n.process().waitFor(60, TimeUnit.SECONDS), n.name() + " stopped within 60 s");
    return n.process().exitValue();
  }

  /** (Re)starts node {@code i} with its ports; does not wait. */
  Node startNode(int i) throws IOException {
    StringBuilder members = new StringBuilder();
    for (int p : hazelcastPorts) {
      members.append(members.length() == 0 ? "" : ",").append("127.0.0.1:").append(p);
    }
    Map<String, String> env = new HashMap<>(Map.of(
        "SLUICE_STORAGE", "postgres",
        "SLUICE_PG_URL", pgUrl,
        "SLUICE_HTTP_HOST", "127.0.0.1",
        "SLUICE_HTTP_PORT", Integer.toString(httpPorts[i]),
        "SLUICE_CLUSTER_ENABLED", "true",
        "SLUICE_CLUSTER_SHARDS", Integer.toString(SHARDS),
        "SLUICE_CLUSTER_PORT", Integer.toString(hazelcastPorts[i]),
        "SLUICE_CLUSTER_EVENT_BUS_PORT", "0",
        "SLUICE_CLUSTER_MEMBERS", members.toString(),
        "SLUICE_ENGINE_EVENT_LOOPS", "1"));
    env.put("JAVA_TOOL_OPTIONS", "-Xmx160m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    env.putAll(extraEnv);
    String name = "node" + (char) ('A' + i);
    Path log = ServerJar.newLog("cluster-" + name + "-");
    Process p = (archived ? ServerJar.logging(log, env) : ServerJar.loggingUnarchived(log, env)).start();
    Node n = new Node(name, httpPorts[i], hazelcastPorts[i], p, log);
    nodes.set(i, n);
    return n;
  }

  List<Row> rows(String sql) throws Exception {
    List<Row> out = new ArrayList<>();
    db.query(sql).execute().await(10, TimeUnit.SECONDS).forEach(out::add);
    return out;
  }

  /** The node id of a running node (its live member row names its process). */
  String nodeId(Node n) throws Exception {
    for (Row r : rows("SELECT node_id, holder FROM sluice_cluster_members WHERE expires_at > clock_timestamp()")) {
      if (r.getString(1).endsWith("pid " + n.pid())) {
        return r.getString(0);
      }
    }
    return null;
  }

  /** Per shard, the node id holding a live lease on it (null: released, expired or never claimed). */
  String[] owners() throws Exception {
    String[] owners = new String[SHARDS];
    for (Row r : rows("SELECT shard, owner FROM sluice_shard_leases WHERE NOT released"
        + " AND expires_at > clock_timestamp() ORDER BY shard")) {
      owners[r.getInteger(0)] = r.getString(1);
    }
    return owners;
  }

  static int shardOf(String queue) {
    return new ShardRouter(SHARDS).shardOf(new QueueKey("000000000000", "us-east-1", queue));
  }

  /** The running node holding the queue's shard now, or null. */
  Node ownerOf(String queue) throws Exception {
    String owner = owners()[shardOf(queue)];
    for (Node n : nodes) {
      if (n != null && n.process().isAlive() && owner != null && owner.equals(nodeId(n))) {
        return n;
      }
    }
    return null;
  }

  /** A queue name starting with {@code prefix} (ending with {@code suffix}) whose shard {@code n} holds. */
  String queueOwnedBy(Node n, String prefix, String suffix) throws Exception {
    String id = nodeId(n);
    String[] owners = owners();
    for (int i = 0; ; i++) {
      String name = prefix + i + suffix;
      if (id.equals(owners[shardOf(name)])) {
        return name;
      }
    }
  }

  /**
   * Waits until every shard has a live lease held by a running node, the running nodes hold
   * between ⌊shards / n⌋ and ⌈shards / n⌉ each, and all of them are loaded (their logs say so).
   */
  void awaitBalanced(Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      List<String> live = new ArrayList<>();
      for (Node n : nodes) {
        String id = n != null && n.process().isAlive() ? nodeId(n) : null;
        if (id != null) {
          live.add(id);
        }
      }
      String[] owners = owners();
      Map<String, Integer> load = new HashMap<>();
      boolean allOwned = true;
      for (String o : owners) {
        allOwned &= o != null && live.contains(o);
        load.merge(String.valueOf(o), 1, Integer::sum);
      }
      int floor = live.isEmpty() ? 0 : SHARDS / live.size();
      boolean balanced = allOwned && !live.isEmpty() && load.values().stream()
          .allMatch(l -> l >= floor && l <= floor + (SHARDS % live.size() == 0 ? 0 : 1));
      last = live.size() + " live nodes, loads " + load;
      if (balanced) {
        Thread.sleep(500); // the last claims' loads
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the cluster did not balance in " + within + ": " + last);
  }

  /**
   * Sends and receives a probe through whichever running node holds the queue's shard, until that
   * works; answers when it first did, in ms after {@code since} ({@link System#nanoTime}).
   */
  long firstServed(String queue, long since) throws Exception {
    long deadline = since + TimeUnit.SECONDS.toNanos(30);
    boolean fifo = queue.endsWith(".fifo");
    while (System.nanoTime() < deadline) {
      Node owner = ownerOf(queue);
      if (owner != null) {
        try (SqsClient sqs = owner.clientWithoutRetries()) {
          sqs.sendMessage(b -> b.queueUrl(owner.url(queue)).messageBody("probe").messageGroupId(fifo ? "p" : null)
              .messageDeduplicationId(fifo ? "probe-" + System.nanoTime() : null));
          sqs.receiveMessage(b -> b.queueUrl(owner.url(queue)).maxNumberOfMessages(1).visibilityTimeout(0));
          return (System.nanoTime() - since) / 1_000_000;
        } catch (software.amazon.awssdk.services.sqs.model.SqsException notYet) {
          // ServiceUnavailable while the shard is claimed and loaded
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError(queue + " was not served again within 30 s");
  }

  void kill(Node n) throws Exception {
    n.process().destroyForcibly();
    assertTrue(n.process().waitFor(10, TimeUnit.SECONDS));
  }

  @Override
  public void close() throws java.util.concurrent.TimeoutException {
    for (Node n : nodes) {
      if (n != null) {
        n.process().destroyForcibly();
      }
    }
    try {
      for (Node n : nodes) {
        if (n != null) {
          n.process().waitFor(10, TimeUnit.SECONDS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the nodes are killed already; the database is closed below
    }
    db.close().await(10, TimeUnit.SECONDS);
  }
}
