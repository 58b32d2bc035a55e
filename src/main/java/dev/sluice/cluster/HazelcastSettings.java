package dev.sluice.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MultiMapConfig;
import com.hazelcast.config.NetworkConfig;
import dev.sluice.config.ClusterConfig;
import java.util.List;

/**
 * The Hazelcast member configuration of a cluster node (design page cluster.md §2.17), built from
 * {@link ClusterConfig} without starting anything. Hazelcast only tells the nodes who is around and
 * carries the event bus's address map; PostgreSQL decides who owns what, so these settings aim at
 * staying on the configured address, finding the other nodes quickly and noticing a silent one in
 * {@code cluster.memberTimeoutMillis}.
 */
public final class HazelcastSettings {
  /** How soon a dropped member is merged back. */
  static final int MERGE_DELAY_SECONDS = 5;

  /** The TCP/IP join's wait for a connection to a listed member (Hazelcast's default: 5 s). */
  static final int CONNECTION_TIMEOUT_SECONDS = 1;

  private HazelcastSettings() {}

  /**
   * The maps and multimap Vert.x's cluster manager uses (as its packaged {@code default-cluster.xml}
   * declares them), with the network, join, failure detection and start-up of §2.17. Built in code:
   * reading that XML through Hazelcast's schema-validating parser took 2.5 s of every node's start
   * on two cores.
   */
  public static Config of(ClusterConfig c) {
    Config config = new Config();
    config.addMultiMapConfig(new MultiMapConfig("__vertx.subs").setBackupCount(1)
        .setValueCollectionType(MultiMapConfig.ValueCollectionType.SET));
    config.addMapConfig(new MapConfig("__vertx.haInfo").setBackupCount(1));
    config.addMapConfig(new MapConfig("__vertx.nodeInfo").setBackupCount(1));
    config.setClusterName(c.name());
    // Vert.x keeps only its event-bus subscriptions and two small maps here: 71 partitions instead of
    // 271 make joins and leaves (each moves partitions) quicker, and Hazelcast's own metrics collection
    // serves nobody (Sluice's meters are Micrometer's).
    config.setProperty("hazelcast.partition.count", "71");
    config.getMetricsConfig().setEnabled(false);
    network(config.getNetworkConfig(), c);
    // By default Hazelcast binds the wildcard whatever the interfaces say; they would only choose the address it uses.
    config.setProperty("hazelcast.socket.bind.any", "false");
    join(config.getNetworkConfig().getJoin(), c);
    // Silence from a member for this long removes it (Hazelcast's default: 60 s); a heartbeat every second
    // (default 5 s) keeps a live member well inside it. Rounded up, so a timeout is never shorter than configured.
    config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    config.setProperty("hazelcast.max.no.heartbeat.seconds",
        Integer.toString((c.memberTimeoutMillis() + 999) / 1000));
    // A node looks for the others for 1 s before it settles (default 5 s): joins and restarts wait on it.
    config.setProperty("hazelcast.wait.seconds.before.join", "1");
    // A node the others dropped while it was paused or cut off (its shards moved meanwhile) comes
    // back by Hazelcast's split-brain merge, by default five minutes later; meanwhile it would be no
    // member and hold no shard. Seconds instead.
    config.setProperty("hazelcast.merge.first.run.delay.seconds", Integer.toString(MERGE_DELAY_SECONDS));
    config.setProperty("hazelcast.merge.next.run.delay.seconds", Integer.toString(MERGE_DELAY_SECONDS));
    // No call to Hazelcast's servers from a message queue; Sluice's SIGTERM handler decides the order of the stop.
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    // Through java.util.logging, as the rest of Sluice logs.
    config.setProperty("hazelcast.logging.type", "jdk");
    return config;
  }

  private static void network(NetworkConfig network, ClusterConfig c) {
    // One port, the configured one: auto-increment would take the next free port, such as the event bus's.
    network.setPort(c.port()).setPortAutoIncrement(false);
    // The one address Hazelcast may pick; bind-any (below) makes it bind there rather than on the wildcard.
    network.getInterfaces().clear().setEnabled(true).addInterface(c.host());
    // What the other nodes connect to, when it differs from the bound address (NAT, some pod networks).
    network.setPublicAddress(c.advertisedHost().isEmpty() ? null : c.advertisedHost());
  }

  private static void join(JoinConfig join, ClusterConfig c) {
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    if (!c.kubernetesService().isEmpty()) {
      join.getTcpIpConfig().setEnabled(false);
      join.getKubernetesConfig().setEnabled(true)
          .setProperty("service-dns", c.kubernetesService())
          // Left at 0, Hazelcast 5.3's DnsEndpointResolver gives every address the lookup finds port 5701, whatever
          // cluster.port is.
          .setProperty("service-port", Integer.toString(c.port()));
      return;
    }
    join.getKubernetesConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(CONNECTION_TIMEOUT_SECONDS)
        .setMembers(c.members().isEmpty()
            // A node alone (allowed on loopback only) lists itself, so that another node can still be pointed at it.
            ? List.of(member(c.host(), c.port()))
            : c.members());
  }

  /** host:port as Hazelcast's member list reads it, an IPv6 address in brackets. */
  static String member(String host, int port) {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
