package dev.sluice.runtime;

import io.vertx.core.http.HttpConnection;
import java.lang.reflect.Field;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Takes the largest idle object off a Vert.x 5 connection. Each connection's outbound message queue
 * ({@code io.vertx.core.internal.concurrent.OutboundMessageQueue}) is built over Netty's
 * {@code PlatformDependent.newMpscQueue()}, a JCTools {@code MpscUnboundedArrayQueue} whose first
 * 1,024-slot chunk is allocated at once: 4.7 KB per connection with compressed pointers, 8.8 KB
 * without (ZGC), about 45% of the live heap a parked long poll holds (jcmd's class histogram over
 * 10,000 parked polls, loadtest/RESULTS.md). Neither Vert.x nor Netty has a setting for it, so the
 * queue of a new connection, still empty, is swapped for a {@link ConcurrentLinkedQueue}, which
 * costs one node while empty and supports what the queue is used for (many threads add, the
 * connection's loop polls).
 *
 * <p>It reaches three private fields; if a Vert.x release moves them, or the JVM refuses to set a
 * final field, nothing is changed and the reason is logged once ({@link #unavailableReason}): the
 * server works as before, with the larger connections. {@code ConnectionFootprintTest} fails on a
 * Vert.x where the swap no longer applies, so an upgrade cannot lose it unnoticed.
 */
public final class ConnectionFootprint {
  private static final System.Logger LOG = System.getLogger(ConnectionFootprint.class.getName());
  private static final Field OUTBOUND;
  private static final Field MESSAGE_PASSING;
  private static final Field QUEUE;
  private static volatile String unavailableReason;

  static {
    Field outbound = null;
    Field messagePassing = null;
    Field queue = null;
    String reason = null;
    try {
      outbound = accessible(Class.forName("io.vertx.core.net.impl.VertxConnection"), "outboundMessageQueue");
      messagePassing = accessible(Class.forName("io.vertx.core.internal.concurrent.OutboundMessageQueue"), "mqp");
      queue = accessible(Class.forName("io.vertx.core.streams.impl.MessagePassingQueue"), "queue");
    } catch (ReflectiveOperationException | RuntimeException e) {
      reason = e.toString();
    }
    OUTBOUND = outbound;
    MESSAGE_PASSING = messagePassing;
    QUEUE = queue;
    unavailableReason = reason;
    if (reason != null) {
      unavailable(reason);
    }
  }

  private ConnectionFootprint() {}

  private static Field accessible(Class<?> owner, String name) throws NoSuchFieldException {
    Field f = owner.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  /**
   * Swaps the outbound queue of {@code connection}, just opened and so holding nothing yet (call
   * it from the server's connection handler, on the connection's loop). Returns whether it did.
   */
  public static boolean shrink(HttpConnection connection) {
    if (unavailableReason != null || !OUTBOUND.getDeclaringClass().isInstance(connection)) {
      return false; // an HTTP/2 connection has no such queue
    }
    try {
      Object outbound = OUTBOUND.get(connection);
      Object messagePassing = MESSAGE_PASSING.get(outbound);
      Queue<?> current = (Queue<?>) QUEUE.get(messagePassing);
      if (!current.isEmpty()) {
        return false; // never drop a message: a connection already written to keeps its queue
      }
      QUEUE.set(messagePassing, new ConcurrentLinkedQueue<>());
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      unavailableReason = e.toString();
      unavailable(e.toString());
      return false;
    }
  }

  private static void unavailable(String reason) {
    LOG.log(System.Logger.Level.WARNING, "Connections keep Vert.x's pre-allocated outbound queue"
        + " (about 4.7 KB each): it cannot be replaced on this Vert.x or JVM: " + reason);
  }

  /** Why connections keep their pre-allocated queue, or null when the swap applies. */
  public static String unavailableReason() {
    return unavailableReason;
  }
}
