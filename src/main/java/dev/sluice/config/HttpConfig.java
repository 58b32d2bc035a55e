package dev.sluice.config;

/**
 * The {@code http} section: where the listener binds, how large and how slow a request may be, and
 * how many connections it keeps. {@code maxInflightBodyBytes} 0 means an eighth of the max heap.
 */
public record HttpConfig(String host, int port, int instances, int maxBodyBytes, String publicBaseUrl,
    long maxInflightBodyBytes, int maxConnections, int headerTimeoutMillis, int bodyTimeoutMillis,
    int idleTimeoutMillis) {}
