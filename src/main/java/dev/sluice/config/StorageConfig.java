package dev.sluice.config;

/**
 * The {@code storage}, {@code durability} and {@code pg} keys: where queues and messages are kept.
 *
 * @param mode {@code memory} or {@code postgres}
 * @param durability {@code commit} or {@code relaxed} (postgres only)
 * @param pgUrl postgresql://user[:password]@host:port/database; empty with memory
 * @param leaseMillis how long this server serves after PostgreSQL last confirmed its lock, and how
 *     long a server taking over after an unclean stop waits before serving
 * @param maxWriterBacklogBytes message bytes waiting for PostgreSQL past which sends are
 *     throttled; 0 for an eighth of the max heap ({@link #writerBacklogLimitBytes})
 * @param headWindowMessages never-received messages a queue keeps in memory, the rest in PostgreSQL
 *     only; 0 keeps everything in memory ({@link #paged})
 * @param readPoolSize connections for reading back messages held in PostgreSQL only
 */
public record StorageConfig(
    String mode,
    String durability,
    String pgUrl,
    int poolSize,
    int batchSize,
    int flushIntervalMillis,
    int sendTimeoutMillis,
    int leaseMillis,
    long maxWriterBacklogBytes,
    int headWindowMessages,
    int readPoolSize) {

  /** Whether queues keep only a head of their backlog in memory (pg.headWindowMessages above 0). */
  public boolean paged() {
    return durable() && headWindowMessages > 0;
  }

  public boolean durable() {
    return mode.equals("postgres");
  }

  public boolean answerAfterCommit() {
    return durability.equals("commit");
  }

  /** The writer backlog past which sends are throttled, in bytes. */
  public long writerBacklogLimitBytes() {
    return maxWriterBacklogBytes > 0 ? maxWriterBacklogBytes : Runtime.getRuntime().maxMemory() / 8;
  }

  /** The URL without its password, for logs and messages. */
  public String pgUrlForLogs() {
    return pgUrl.replaceFirst("://([^:@/]*):[^@/]*@", "://$1:***@");
  }
}
