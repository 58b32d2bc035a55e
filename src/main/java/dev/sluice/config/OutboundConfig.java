package dev.sluice.config;

/** The {@code outbound} section: requests Sluice makes to HTTP/HTTPS subscribers of topics. */
public record OutboundConfig(int connectTimeoutMillis, int requestTimeoutMillis, int maxConnectionsPerEndpoint,
    int maxQueuedPerEndpoint, boolean allowPrivateAddresses) {}
