package dev.sluice.outbox;

/**
 * One source as the admin API shows it (GET /console/api/outbox/sources): where it is (no user, no
 * password), whose queues it feeds, what its relay on this node is doing and has done. A value.
 * {@code state}: relaying (this node holds the lease), standby (another session holds it),
 * unreachable (its database is not answering; retried with a back-off) or stopped.
 */
public record OutboxStatus(String name, String table, String host, int port, String database, String accountId,
    String region, String state, String lastError, long relayed, long dead, long retried, long notifyWakeups,
    long pollWakeups, double oldestRowAgeSeconds) {}
