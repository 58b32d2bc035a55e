package dev.sluice.cluster;

import dev.sluice.config.ClusterConfig;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * This node's membership of the cluster (design page cluster.md §2.8, §2.17): a clustered Vert.x
 * instance of its own, joined through Hazelcast, beside the serving instance, which stays
 * non-clustered so that push's local consumers keep their meaning and only the cluster's own
 * addresses reach the network. Its one event loop carries the event bus between nodes; Hazelcast
 * runs on its own threads. Immutable after the join; the member set is kept by a
 * {@link MemberView}.
 */
public final class ClusterNode {
  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());

  private final Vertx vertx;
  private final HazelcastClusterManager manager;
  private final MemberView view;
  private final long leaveMillis;

  private ClusterNode(Vertx vertx, HazelcastClusterManager manager, MemberView view, long leaveMillis) {
    this.vertx = vertx;
    this.manager = manager;
    this.view = view;
    this.leaveMillis = leaveMillis;
  }

  /**
   * Starts Hazelcast and the clustered event bus, and completes once this node is a member. Meant
   * for the start thread, which may block: reading Vert.x's Hazelcast XML and creating the Vert.x
   * instance take the caller's thread for a moment, while Hazelcast's start and the join run on
   * the new instance's worker threads. Called on an event loop, that moment moves to the caller's
   * worker pool, and the result is delivered on the caller's context; called elsewhere, the
   * result comes on the clustered instance's event loop, which the callback must not hold up.
   */
  public static Future<ClusterNode> join(ClusterConfig c) {
    Context caller = Vertx.currentContext();
    if (caller != null && Context.isOnEventLoopThread()) {
      return caller.executeBlocking(() -> start(c)).compose(node -> node);
    }
    return start(c);
  }

  private static Future<ClusterNode> start(ClusterConfig c) {
    long started = System.nanoTime();
    HazelcastClusterManager manager = new HazelcastClusterManager(HazelcastSettings.of(c));
    MemberView view = new MemberView(manager);
    // Set before the join, so that no change between joining and the first read below is missed. Vert.x's
    // cluster manager holds one node listener; only its HA manager would take it, and HA stays off here.
    manager.nodeListener(view);
    VertxOptions options = new VertxOptions().setEventLoopPoolSize(1).setEventBusOptions(EventBusSettings.of(c));
    // A node that stops answering for memberTimeoutMillis is dropped by the others in any case: a leave that has
    // not finished by then has nothing left to save, and the stop goes on without it.
    long leaveMillis = Math.max(5_000, c.memberTimeoutMillis());
    return Vertx.builder().with(options).withClusterManager(manager).buildClustered()
        .compose(vertx -> vertx.<ClusterNode>executeBlocking(() -> {
          view.refresh();
          return new ClusterNode(vertx, manager, view, leaveMillis);
        }).recover(e -> vertx.close().transform(ignored -> Future.failedFuture(e))))
        .onSuccess(node -> LOG.log(System.Logger.Level.INFO, () -> "Joined cluster '" + c.name() + "' as node "
            + node.nodeId() + " in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) + " ms: Hazelcast "
            + node.hazelcastAddress() + ", event bus " + node.eventBusAddress() + ", " + node.members().size()
            + " member(s)"));
  }

  /** This node's id in the cluster, a UUID chosen at each join; the event bus addresses nodes by it. */
  public String nodeId() {
    return manager.getNodeId();
  }

  /** The clustered instance, for the traffic between nodes; never the serving instance. */
  public Vertx vertx() {
    return vertx;
  }

  /** The node ids Hazelcast counts as members, this one included, as last reported. Never blocks. */
  public Set<String> members() {
    return view.members();
  }

  /**
   * Tells {@code listener}, on {@code context}, the current member set at once and then each new
   * one. Hazelcast reports changes on its own threads; they are handed to the context in order.
   */
  public void onMembersChanged(Context context, Consumer<Set<String>> listener) {
    view.listen(context, listener);
  }

  /** host:port the other nodes reach this node's Hazelcast member at. */
  public String hazelcastAddress() {
    com.hazelcast.cluster.Address a = manager.getHazelcastInstance().getCluster().getLocalMember().getAddress();
    return HazelcastSettings.member(a.getHost(), a.getPort());
  }

  /** host:port the other nodes send this node's event-bus messages to (the bound port when 0 was configured). */
  public String eventBusAddress() {
    NodeInfo info = manager.getNodeInfo();
    return HazelcastSettings.member(info.host(), info.port());
  }

  /**
   * Leaves the cluster and closes the clustered instance. Completes when that is done, or fails
   * after {@code max(5 s, cluster.memberTimeoutMillis)} while the close goes on: by then the
   * others have dropped this node anyway. Delivered on the caller's context, unless that context
   * belongs to the clustered instance, which is closing.
   */
  public Future<Void> leave() {
    Context caller = Vertx.currentContext();
    // The clustered instance's own timers stop during its close, so the bound is kept outside it.
    var closed = vertx.close().toCompletionStage().toCompletableFuture().orTimeout(leaveMillis, TimeUnit.MILLISECONDS);
    return caller != null && caller.owner() != vertx ? Future.fromCompletionStage(closed, caller)
        : Future.fromCompletionStage(closed);
  }
}
