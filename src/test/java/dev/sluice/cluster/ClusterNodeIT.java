package dev.sluice.cluster;

import static dev.sluice.cluster.HazelcastSettingsTest.cluster;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ClusterConfig;
import dev.sluice.testtools.ListeningSockets;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Three cluster nodes in this JVM on 127.0.0.1, each pointed at the other two, started at once
 * (one of them from an event loop) and sharing one cluster for the class: they agree on the
 * members, carry a request and its reply between them, listen on loopback only, and notice a node
 * that left. The last case closes node B.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Isolated
class ClusterNodeIT {
  static final int MEMBER_TIMEOUT_MILLIS = 2_000;
  static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
  static int[] ports;
  static Map<Long, InetSocketAddress> listeningBefore;
  static final List<ClusterNode> nodes = new ArrayList<>();
  /** How long each node took to join, from the call to its future's completion. */
  static final long[] joinMillis = new long[3];

  /** A plain Vert.x instance whose event loop joins node C, as a caller on a context would. */
  static Vertx caller;
  static Context callerContext;
  /** How long each join call held its caller's thread before returning its future, and the CPU it spent there. */
  static final long[] heldMillis = new long[3];
  static final long[] heldCpuMillis = new long[3];
  static volatile Context cAnsweredOn;

  @BeforeAll
  static void joinThreeNodes() throws Exception {
    ports = freePorts(3);
    caller = Vertx.vertx();
    callerContext = caller.getOrCreateContext();
    listeningBefore = ListeningSockets.ofThisProcess();
    long started = System.nanoTime();
    List<CompletableFuture<ClusterNode>> joins = new ArrayList<>();
    // All three at once, as the pods of a Deployment start: A and B from this thread, C from an event loop.
    for (int i = 0; i < 2; i++) {
      joins.add(timedJoin(i).toCompletionStage().toCompletableFuture());
    }
    CompletableFuture<ClusterNode> c = new CompletableFuture<>();
    callerContext.runOnContext(v -> timedJoin(2).onComplete((node, e) -> {
      cAnsweredOn = Vertx.currentContext();
      if (e == null) {
        c.complete(node);
      } else {
        c.completeExceptionally(e);
      }
    }));
    joins.add(c);
    for (CompletableFuture<ClusterNode> join : joins) {
      nodes.add(join.get(30, TimeUnit.SECONDS));
    }
    long all = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    await(() -> nodes.stream().allMatch(n -> n.members().size() == 3), 10_000, "each node to see three members");
    System.out.printf("ClusterNodeIT: A, B and C joined in %s ms (all three in %d ms), all saw 3 members after %d ms;"
        + " the calls held their callers %s ms, of which CPU %s ms (C's: an event loop)%n", Arrays.toString(joinMillis),
        all, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), Arrays.toString(heldMillis),
        Arrays.toString(heldCpuMillis));
  }

  static Future<ClusterNode> timedJoin(int i) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Future<ClusterNode> join = ClusterNode.join(config(i));
    heldMillis[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    heldCpuMillis[i] = TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime() - cpu0);
    return join.onSuccess(n -> joinMillis[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
  }

  @AfterAll
  static void leave() throws Exception {
    for (ClusterNode n : nodes) {
      n.leave().await(30, TimeUnit.SECONDS);
    }
    caller.close().await(10, TimeUnit.SECONDS);
  }

  /** Node i on ports[i], listing the other two by host:port. */
  static ClusterConfig config(int i) {
    String others = IntStream.range(0, ports.length).filter(j -> j != i)
        .mapToObj(j -> "127.0.0.1:" + ports[j]).collect(Collectors.joining(","));
    return cluster("SLUICE_CLUSTER_NAME", "cluster-node-it", "SLUICE_CLUSTER_HOST", "127.0.0.1",
        "SLUICE_CLUSTER_PORT", Integer.toString(ports[i]), "SLUICE_CLUSTER_EVENT_BUS_PORT", "0",
        "SLUICE_CLUSTER_MEMBERS", others,
        "SLUICE_CLUSTER_MEMBER_TIMEOUT_MILLIS", Integer.toString(MEMBER_TIMEOUT_MILLIS));
  }

  /** Distinct ports nothing listened on a moment ago, all held at once so that none repeats. */
  static int[] freePorts(int n) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        held.add(new ServerSocket(0, 1, LOOPBACK));
      }
      return held.stream().mapToInt(ServerSocket::getLocalPort).toArray();
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
  }

  static void await(Supplier<Boolean> condition, long millis, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (!condition.get()) {
      assertTrue(System.nanoTime() < deadline, "waited " + millis + " ms for " + what);
      Thread.sleep(10);
    }
  }

  @Test
  @Order(1)
  void allThreeSeeTheSameThreeMembersEachWithItsOwnId() {
    Set<String> ids = nodes.stream().map(ClusterNode::nodeId).collect(Collectors.toSet());
    assertEquals(3, ids.size(), "the node ids differ: " + ids);
    for (ClusterNode n : nodes) {
      assertEquals(ids, n.members());
    }
  }

  @Test
  @Order(1)
  void aJoinCalledOnAnEventLoopLeavesItAtOnceAndAnswersOnItsContext() {
    assertSame(callerContext, cAnsweredOn);
    // Reading Vert.x's Hazelcast XML and building the instance (what A's and B's calls spent their callers' CPU on)
    // went to the caller's worker pool. Judged by CPU time, which a busy machine's preemptions do not inflate.
    assertTrue(heldCpuMillis[2] < 50, "the event loop spent " + heldCpuMillis[2] + " ms of CPU in the call ("
        + heldMillis[2] + " ms in all); A's and B's calls " + Arrays.toString(heldCpuMillis));
  }

  @Test
  @Order(2)
  void aRequestFromAReachesAnAddressOnCAndGetsItsReply() throws Exception {
    ClusterNode a = nodes.get(0);
    ClusterNode c = nodes.get(2);
    String address = "sluice.cluster.node." + c.nodeId();
    MessageConsumer<String> consumer = c.vertx().eventBus().<String>consumer(address,
        m -> m.reply("pong from " + c.nodeId() + " to " + m.body()));
    // Written into Hazelcast's subscription map before the request looks it up.
    consumer.completion().await(10, TimeUnit.SECONDS);
    try {
      String reply = a.vertx().eventBus().<String>request(address, "ping from " + a.nodeId())
          .await(10, TimeUnit.SECONDS).body();
      assertEquals("pong from " + c.nodeId() + " to ping from " + a.nodeId(), reply);
    } finally {
      consumer.unregister().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @Order(3)
  void everySocketTheNodesListenOnIsBoundTo127001() throws Exception {
    Map<Long, InetSocketAddress> opened = new HashMap<>(ListeningSockets.ofThisProcess());
    opened.keySet().removeAll(listeningBefore.keySet());
    Set<Integer> expected = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      ClusterNode n = nodes.get(i);
      assertEquals("127.0.0.1:" + ports[i], n.hazelcastAddress());
      String eventBus = n.eventBusAddress();
      assertTrue(eventBus.startsWith("127.0.0.1:"), eventBus);
      expected.add(ports[i]);
      expected.add(Integer.parseInt(eventBus.substring("127.0.0.1:".length())));
    }
    assertEquals(6, expected.size(), "three Hazelcast ports and three event-bus ports: " + expected);
    for (InetSocketAddress s : opened.values()) {
      assertEquals("127.0.0.1", s.getAddress().getHostAddress(), "listening on " + s + "; all opened: " + opened);
    }
    Set<Integer> openedPorts = opened.values().stream().map(InetSocketAddress::getPort).collect(Collectors.toSet());
    assertTrue(openedPorts.containsAll(expected), "listening on " + opened + ", expected the ports " + expected);
  }

  @Test
  @Order(4)
  void whenBLeavesAAndCSeeTwoMembersWithinTheMemberTimeout() throws Exception {
    ClusterNode a = nodes.get(0);
    ClusterNode b = nodes.get(1);
    ClusterNode c = nodes.get(2);
    Context context = a.vertx().getOrCreateContext();
    BlockingQueue<Set<String>> seenByA = new LinkedBlockingQueue<>();
    List<Context> deliveredOn = new CopyOnWriteArrayList<>();
    a.onMembersChanged(context, members -> {
      deliveredOn.add(Vertx.currentContext());
      seenByA.add(members);
    });
    assertEquals(3, seenByA.poll(5, TimeUnit.SECONDS).size(), "the current set, at once");
    long t0 = System.nanoTime();
    Future<Void> leaving = b.leave();
    Set<String> after = seenByA.poll(MEMBER_TIMEOUT_MILLIS + 3_000, TimeUnit.MILLISECONDS);
    long seenMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals(Set.of(a.nodeId(), c.nodeId()), after, "A's listener after B left");
    await(() -> c.members().size() == 2, MEMBER_TIMEOUT_MILLIS + 3_000 - seenMillis, "C to see two members");
    long bothMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    leaving.await(30, TimeUnit.SECONDS);
    long leftMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    nodes.remove(b);
    for (Context delivered : deliveredOn) {
      assertSame(context, delivered, "each set delivered on the listener's context");
    }
    assertEquals(a.members(), c.members());
    assertFalse(a.members().contains(b.nodeId()));
    System.out.printf("ClusterNodeIT: B left; A's listener heard it after %d ms, A and C both after %d ms; B's leave"
        + " completed after %d ms%n", seenMillis, bothMillis, leftMillis);
  }
}
