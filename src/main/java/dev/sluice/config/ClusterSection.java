package dev.sluice.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code cluster} section apart from the others: it is the one whose values are hosts,
 * ports and lists of nodes, checked here without any lookup, and the one that asks things of the
 * other sections.
 */
final class ClusterSection {
  private ClusterSection() {}

  /**
   * The {@code cluster} section. Its own values are checked whether cluster mode is on or not, as
   * every other key is, so that a bad one is caught before the day it is used; what cluster mode asks
   * of other sections, and the secret beyond loopback, only when it is on.
   */
  static ClusterConfig read(ConfigValues v, StorageConfig storage, EngineConfig engine) {
    boolean enabled = v.oneOf(ConfigKey.CLUSTER_ENABLED, "true", "false").equals("true");
    int shards = (int) v.number(ConfigKey.CLUSTER_SHARDS, 1, 1024);
    String name = v.string(ConfigKey.CLUSTER_NAME, false);
    String host = v.string(ConfigKey.CLUSTER_HOST, false);
    InetAddress bound = ipAddress(host);
    if (bound == null || bound.isAnyLocalAddress()) {
      // Hazelcast chooses its interface by address, and a wildcard would open both ports on every interface.
      throw v.invalid(ConfigKey.CLUSTER_HOST, "one IP address of this machine, such as 127.0.0.1 or the pod's IP, not"
          + " a host name or a wildcard");
    }
    // Hazelcast has no free-port pick of its own (and auto-increment is off), so its port is never 0.
    int port = (int) v.number(ConfigKey.CLUSTER_PORT, 1, 65535);
    int eventBusPort = (int) v.number(ConfigKey.CLUSTER_EVENT_BUS_PORT, 0, 65535);
    if (eventBusPort == port) {
      throw v.invalid(ConfigKey.CLUSTER_EVENT_BUS_PORT, "a port other than cluster.port, or 0 for a free one");
    }
    String advertisedHost = v.string(ConfigKey.CLUSTER_ADVERTISED_HOST, true);
    if (!advertisedHost.isEmpty() && !isHost(advertisedHost)) {
      throw v.invalid(ConfigKey.CLUSTER_ADVERTISED_HOST, "empty, or the host name or IP address other nodes reach"
          + " this one at (not a wildcard)");
    }
    int advertisedEventBusPort = (int) v.number(ConfigKey.CLUSTER_ADVERTISED_EVENT_BUS_PORT, 0, 65535);
    List<String> members = members(v, ConfigKey.CLUSTER_MEMBERS);
    String service = v.string(ConfigKey.CLUSTER_KUBERNETES_SERVICE, true);
    if (!service.isEmpty() && !service.matches(DNS_NAME)) {
      throw v.invalid(ConfigKey.CLUSTER_KUBERNETES_SERVICE, "empty, or the DNS name of a headless Service such as"
          + " sluice-cluster-members.default.svc.cluster.local");
    }
    if (!service.isEmpty() && !members.isEmpty()) {
      throw v.invalid(ConfigKey.CLUSTER_KUBERNETES_SERVICE, "empty, since cluster.members is set: one way to find"
          + " the other nodes");
    }
    int leaseMillis = (int) v.number(ConfigKey.CLUSTER_LEASE_MILLIS, 1_000, 600_000);
    int memberTimeoutMillis = (int) v.number(ConfigKey.CLUSTER_MEMBER_TIMEOUT_MILLIS, 2_000, 600_000);
    int retryMillis = (int) v.number(ConfigKey.CLUSTER_RETRY_MILLIS, 0, 600_000);
    String secret = v.string(ConfigKey.CLUSTER_SECRET, true);
    if (!secret.isEmpty() && secret.length() < 32) {
      throw ConfigValues.invalidSecret(ConfigKey.CLUSTER_SECRET, "expected at least 32 characters");
    }
    List<String> tls = v.pemFiles(ConfigKey.CLUSTER_TLS_CERT_PATH, ConfigKey.CLUSTER_TLS_KEY_PATH,
        ConfigKey.CLUSTER_TLS_CA_PATH);
    if (enabled) {
      if (!storage.durable()) {
        throw requiredByCluster(ConfigKey.STORAGE, "postgres", "the shard leases that keep two nodes from serving one"
            + " queue live in PostgreSQL");
      }
      if (engine.shards() != 0) {
        throw requiredByCluster(ConfigKey.ENGINE_SHARDS, "0", "cluster.shards replaces it");
      }
      if (!engine.dispatch().equals("direct")) {
        throw requiredByCluster(ConfigKey.ENGINE_DISPATCH, "direct", "cluster mode hands calls to a node's own shards"
            + " directly");
      }
      if (secret.isEmpty() && !bound.isLoopbackAddress()) {
        throw requiredBeyondLoopback(host, "it authenticates the calls nodes forward to each other",
            ConfigKey.CLUSTER_SECRET);
      }
      // Beyond loopback, a node that a forgotten setting leaves alone would contend for every shard with peers it
      // cannot see; on loopback, alone is the local trial.
      if (members.isEmpty() && service.isEmpty() && !bound.isLoopbackAddress()) {
        throw requiredBeyondLoopback(host, "how this node finds the others (a single node may list itself)",
            ConfigKey.CLUSTER_MEMBERS, ConfigKey.CLUSTER_KUBERNETES_SERVICE);
      }
    }
    return new ClusterConfig(enabled, shards, name, host, port, eventBusPort, advertisedHost, advertisedEventBusPort,
        members, service, leaseMillis, memberTimeoutMillis, retryMillis, secret, tls.get(0), tls.get(1),
        tls.get(2));
  }

  /** The nodes to join, host[:port] comma-separated. */
  private static List<String> members(ConfigValues v, ConfigKey k) {
    List<String> members = new ArrayList<>();
    for (String part : v.string(k, true).split(",")) {
      String m = part.trim();
      if (m.isEmpty()) {
        continue;
      }
      if (!isMember(m)) {
        throw v.invalid(k, "a comma-separated list of host[:port] such as 10.0.0.1,10.0.0.2:5701 (an IPv6 address in"
            + " brackets)");
      }
      members.add(m);
    }
    return List.copyOf(members);
  }

  /** A DNS name: letters, digits, hyphens and dots, neither starting nor ending with a hyphen or dot. */
  private static final String DNS_NAME = "[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?";
  /** host[:port] of a node to join; an IPv6 address goes in brackets, since it holds colons itself. */
  private static final Pattern MEMBER =
      Pattern.compile("\\[([^\\]]+)\\](?::(\\d{1,5}))?|([^:\\[\\]]+)(?::(\\d{1,5}))?");

  /** A host name, or an IP address that is not a wildcard. */
  private static boolean isHost(String s) {
    InetAddress ip = ipAddress(s);
    return ip != null ? !ip.isAnyLocalAddress() : s.matches(DNS_NAME) && !s.matches("[0-9.]+");
  }

  private static boolean isMember(String s) {
    Matcher m = MEMBER.matcher(s);
    if (!m.matches()) {
      return false;
    }
    String port = m.group(2) != null ? m.group(2) : m.group(4);
    if (port != null && (Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535)) {
      return false;
    }
    return m.group(1) != null ? ipAddress(m.group(1)) instanceof Inet6Address ip && !ip.isAnyLocalAddress()
        : isHost(m.group(3));
  }

  /** The address an IP literal (dotted IPv4, or IPv6) names, found without any lookup; null for anything else. */
  private static InetAddress ipAddress(String s) {
    try {
      if (s.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
        byte[] octets = new byte[4];
        String[] parts = s.split("\\.");
        for (int i = 0; i < 4; i++) {
          int octet = Integer.parseInt(parts[i]);
          if (octet > 255) {
            return null;
          }
          octets[i] = (byte) octet;
        }
        return InetAddress.getByAddress(octets);
      }
      // Given a colon, InetAddress parses an IPv6 literal and never asks DNS; a dotted name would be looked up.
      return s.contains(":") && s.matches("[0-9A-Fa-f:.]+") ? InetAddress.getByName(s) : null;
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** Cluster mode needs {@code k} to be {@code value}. */
  static ConfigException requiredByCluster(ConfigKey k, String value, String why) {
    return new ConfigException("Configuration key '" + ConfigKey.CLUSTER_ENABLED.path() + "' ("
        + ConfigKey.CLUSTER_ENABLED.envVar() + ") requires " + k.path() + ": " + value + " (" + k.envVar() + "): "
        + why);
  }

  /** One of {@code keys} must be set, since {@code cluster.host} is not a loopback address. */
  private static ConfigException requiredBeyondLoopback(String host, String why, ConfigKey... keys) {
    return new ConfigException("Configuration key " + String.join(" or ", Arrays.stream(keys)
        .map(k -> "'" + k.path() + "' (" + k.envVar() + ")").toList()) + " is required when cluster.host (" + host
        + ") is not a loopback address: " + why);
  }
}
