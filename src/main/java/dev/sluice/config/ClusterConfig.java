package dev.sluice.config;

import java.util.List;

/**
 * The {@code cluster} section: whether several nodes share one PostgreSQL, how they find each
 * other, and how long leases, silence and retries last (src/site/markdown/design/cluster.md §2.2).
 * {@link #toString} leaves the secret out.
 *
 * @param host the IP address both cluster ports bind to, never a wildcard
 * @param eventBusPort 0 picks a free port
 * @param advertisedHost empty: {@code host}
 * @param advertisedEventBusPort 0: {@code eventBusPort}
 * @param members {@code host[:port]} entries to join over TCP/IP; empty with
 *     {@code kubernetesService}, or (on loopback only) for a node that runs alone
 * @param kubernetesService DNS name of the headless Service that lists the nodes; empty with members
 * @param secret authenticates frames between nodes; empty only on a loopback {@code host}
 */
public record ClusterConfig(
    boolean enabled,
    int shards,
    String name,
    String host,
    int port,
    int eventBusPort,
    String advertisedHost,
    int advertisedEventBusPort,
    List<String> members,
    String kubernetesService,
    int leaseMillis,
    int memberTimeoutMillis,
    int retryMillis,
    String secret,
    String tlsCertPath,
    String tlsKeyPath,
    String tlsCaPath) {

  /** Whether the event bus between nodes speaks mutual TLS (the three paths come together or not at all). */
  public boolean tls() {
    return !tlsCertPath.isEmpty();
  }

  @Override
  public String toString() {
    return "ClusterConfig[enabled=" + enabled + ", shards=" + shards + ", name=" + name + ", host=" + host + ", port="
        + port + ", eventBusPort=" + eventBusPort + ", advertisedHost=" + advertisedHost + ", advertisedEventBusPort="
        + advertisedEventBusPort + ", members=" + members + ", kubernetesService=" + kubernetesService
        + ", leaseMillis=" + leaseMillis + ", memberTimeoutMillis=" + memberTimeoutMillis + ", retryMillis="
        + retryMillis + ", secret=" + (secret.isEmpty() ? "none" : "set") + ", tls=" + tls() + "]";
  }
}
