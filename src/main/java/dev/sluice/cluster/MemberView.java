package dev.sluice.cluster;

import io.vertx.core.Context;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.core.spi.cluster.NodeListener;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The node ids of the cluster's members as the cluster manager last reported them, and the
 * listeners that hear of each change on a context of their choosing. Written on Hazelcast's event
 * threads (the cluster manager calls its node listener under its own lock, one event at a time)
 * and once by the join, on a worker; read from anywhere.
 *
 * <p>Each event re-reads the whole member list rather than applying the one id it names, so a
 * late or merged event (after a partition heals Vert.x replays joins and leaves) cannot leave a
 * wrong set behind: the last read is the truth at that time.
 */
final class MemberView implements NodeListener {
  private record Listener(Context context, Consumer<Set<String>> consumer) {}

  private final ClusterManager manager;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private volatile Set<String> members = Set.of();

  MemberView(ClusterManager manager) {
    this.manager = manager;
  }

  Set<String> members() {
    return members;
  }

  /**
   * Reads the member list (Hazelcast's local view; Vert.x documents getNodes as possibly blocking,
   * so never on an event loop) and tells the listeners if it changed. Under the lock, so that sets
   * are published, and queued to each context, in the order they were read.
   */
  synchronized void refresh() {
    Set<String> now = Set.copyOf(manager.getNodes());
    if (now.equals(members)) {
      return;
    }
    members = now;
    for (Listener l : listeners) {
      l.context().runOnContext(v -> l.consumer().accept(now));
    }
  }

  /** The listener hears the current set at once, then every change, each on {@code context}. */
  synchronized void listen(Context context, Consumer<Set<String>> consumer) {
    Listener l = new Listener(context, consumer);
    listeners.add(l);
    Set<String> now = members;
    context.runOnContext(v -> consumer.accept(now));
  }

  @Override
  public void nodeAdded(String nodeId) {
    refresh();
  }

  @Override
  public void nodeLeft(String nodeId) {
    refresh();
  }
}
