package dev.sluice.config;

/**
 * The {@code http} section: where the listener binds, how large and how slow a request may be, and
 * how many connections it keeps. {@code maxInflightBodyBytes} 0 means an eighth of the max heap.
 */
public record HttpConfig(String host, int port, int instances, int maxBodyBytes, String publicBaseUrl,
    long maxInflightBodyBytes, int maxConnections, int headerTimeoutMillis, int bodyTimeoutMillis,
    int idleTimeoutMillis) {

  /** Whether a listener bound to {@code host} can be reached from this machine only. */
  public static boolean isLoopback(String host) {
    return host.equals("localhost") || host.equals("::1") || host.startsWith("127.");
  }
}
