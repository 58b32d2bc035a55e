package dev.sluice.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MultiMapConfig;
import com.hazelcast.config.NetworkConfig;
import dev.sluice.config.ClusterConfig;
import dev.sluice.config.ConfigLoader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each setting of design page cluster.md §2.17's table, for a node joining by a member list and one in Kubernetes. */
class HazelcastSettingsTest {
  static ClusterConfig cluster(String... keyValues) {
    Map<String, String> env = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      env.put(keyValues[i], keyValues[i + 1]);
    }
    return ConfigLoader.load(new String[0], env).cluster();
  }

  static final ClusterConfig MEMBERS = cluster("SLUICE_CLUSTER_NAME", "orders", "SLUICE_CLUSTER_HOST", "10.0.0.5",
      "SLUICE_CLUSTER_PORT", "6701", "SLUICE_CLUSTER_ADVERTISED_HOST", "node-5.example.internal",
      "SLUICE_CLUSTER_MEMBERS", "10.0.0.6, 10.0.0.7:6701,[fd00::8]:6701", "SLUICE_CLUSTER_MEMBER_TIMEOUT_MILLIS", "2500");
  static final ClusterConfig KUBERNETES = cluster("SLUICE_CLUSTER_HOST", "10.1.2.3",
      "SLUICE_CLUSTER_KUBERNETES_SERVICE", "sluice-cluster-members.default.svc.cluster.local");

  @Test
  void aMemberListNodeBindsItsHostAloneOnItsPortAndJoinsOverTcpIp() {
    Config c = HazelcastSettings.of(MEMBERS);
    assertEquals("orders", c.getClusterName());
    NetworkConfig network = c.getNetworkConfig();
    assertEquals(6701, network.getPort());
    assertFalse(network.isPortAutoIncrement());
    assertTrue(network.getInterfaces().isEnabled());
    assertEquals(List.of("10.0.0.5"), List.copyOf(network.getInterfaces().getInterfaces()));
    assertEquals("false", c.getProperty("hazelcast.socket.bind.any"));
    assertEquals("node-5.example.internal", network.getPublicAddress());
    JoinConfig join = network.getJoin();
    assertFalse(join.getMulticastConfig().isEnabled(), "Vert.x's default-cluster.xml turns it on");
    assertFalse(join.getAutoDetectionConfig().isEnabled());
    assertFalse(join.getKubernetesConfig().isEnabled());
    assertTrue(join.getTcpIpConfig().isEnabled());
    assertEquals(List.of("10.0.0.6", "10.0.0.7:6701", "[fd00::8]:6701"), join.getTcpIpConfig().getMembers());
    assertEquals(1, join.getTcpIpConfig().getConnectionTimeoutSeconds());
    join.verify();
    assertEquals("3", c.getProperty("hazelcast.max.no.heartbeat.seconds"), "2.5 s rounded up");
    assertCommonProperties(c);
    assertVertxStructuresKept(c);
  }

  @Test
  void aKubernetesNodeFindsTheOthersByTheHeadlessServicesDnsNameOnItsPort() {
    Config c = HazelcastSettings.of(KUBERNETES);
    assertEquals("sluice", c.getClusterName());
    NetworkConfig network = c.getNetworkConfig();
    assertEquals(5701, network.getPort());
    assertFalse(network.isPortAutoIncrement());
    assertEquals(List.of("10.1.2.3"), List.copyOf(network.getInterfaces().getInterfaces()));
    assertTrue(network.getInterfaces().isEnabled());
    assertEquals("false", c.getProperty("hazelcast.socket.bind.any"));
    assertNull(network.getPublicAddress(), "no advertised host: Hazelcast advertises the bound one");
    JoinConfig join = network.getJoin();
    assertFalse(join.getMulticastConfig().isEnabled());
    assertFalse(join.getAutoDetectionConfig().isEnabled());
    assertFalse(join.getTcpIpConfig().isEnabled());
    assertTrue(join.getKubernetesConfig().isEnabled());
    assertEquals("sluice-cluster-members.default.svc.cluster.local", join.getKubernetesConfig().getProperty("service-dns"));
    assertEquals("5701", join.getKubernetesConfig().getProperty("service-port"),
        "the addresses the lookup finds get cluster.port");
    join.verify();
    assertEquals("5", c.getProperty("hazelcast.max.no.heartbeat.seconds"), "the default 5,000 ms");
    assertCommonProperties(c);
    assertVertxStructuresKept(c);
  }

  @Test
  void aLoopbackNodeWithoutMembersListsItselfSoThatOthersCanJoinIt() {
    Config c = HazelcastSettings.of(cluster("SLUICE_CLUSTER_PORT", "5801"));
    assertTrue(c.getNetworkConfig().getJoin().getTcpIpConfig().isEnabled());
    assertEquals(List.of("127.0.0.1:5801"), c.getNetworkConfig().getJoin().getTcpIpConfig().getMembers());
    Config v6 = HazelcastSettings.of(cluster("SLUICE_CLUSTER_HOST", "::1"));
    assertEquals(List.of("[::1]:5701"), v6.getNetworkConfig().getJoin().getTcpIpConfig().getMembers());
    assertEquals(List.of("::1"), List.copyOf(v6.getNetworkConfig().getInterfaces().getInterfaces()));
  }

  @Test
  void theMemberTimeoutIsRoundedUpToWholeSeconds() {
    assertEquals("2", HazelcastSettings.of(cluster("SLUICE_CLUSTER_MEMBER_TIMEOUT_MILLIS", "2000"))
        .getProperty("hazelcast.max.no.heartbeat.seconds"));
    assertEquals("3", HazelcastSettings.of(cluster("SLUICE_CLUSTER_MEMBER_TIMEOUT_MILLIS", "2001"))
        .getProperty("hazelcast.max.no.heartbeat.seconds"));
  }

  static void assertCommonProperties(Config c) {
    assertEquals("1", c.getProperty("hazelcast.heartbeat.interval.seconds"));
    assertEquals("1", c.getProperty("hazelcast.wait.seconds.before.join"));
    assertEquals("5", c.getProperty("hazelcast.merge.first.run.delay.seconds"), "a dropped member comes back soon");
    assertEquals("71", c.getProperty("hazelcast.partition.count"));
    assertEquals(false, c.getMetricsConfig().isEnabled());
    assertEquals("5", c.getProperty("hazelcast.merge.next.run.delay.seconds"));
    assertEquals("false", c.getProperty("hazelcast.phone.home.enabled"));
    assertEquals("false", c.getProperty("hazelcast.shutdownhook.enabled"));
    assertEquals("jdk", c.getProperty("hazelcast.logging.type"));
  }

  /** Vert.x's own structures, from its default-cluster.xml, are still declared as it declares them. */
  static void assertVertxStructuresKept(Config c) {
    MultiMapConfig subs = c.getMultiMapConfigs().get("__vertx.subs");
    assertEquals(MultiMapConfig.ValueCollectionType.SET, subs.getValueCollectionType());
    assertEquals(1, subs.getBackupCount());
    assertEquals(1, c.getMapConfigs().get("__vertx.haInfo").getBackupCount());
    assertEquals(1, c.getMapConfigs().get("__vertx.nodeInfo").getBackupCount());
  }
}
