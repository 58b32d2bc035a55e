package dev.sluice.outbound;

/**
 * What outbound requests are bounded by.
 *
 * @param connectTimeoutMillis longest a connection may take to open
 * @param requestTimeoutMillis longest a request may take from its start to its answer's status
 * @param maxConnectionsPerEndpoint connections open at once to one scheme, host and port
 * @param maxQueuedPerEndpoint requests waiting for one of those connections; past it a request
 *     fails at once
 * @param allowPrivateAddresses whether an endpoint may resolve to a loopback, private, link-local
 *     or otherwise non-public address
 */
public record OutboundSettings(int connectTimeoutMillis, int requestTimeoutMillis, int maxConnectionsPerEndpoint,
    int maxQueuedPerEndpoint, boolean allowPrivateAddresses) {}
