package dev.sluice.engine;

import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Signalled by the protocol layer when a caller's connection closes, so that a receive parked for
 * it is dropped instead of taking messages nobody will read. Crosses threads (the connection's
 * event loop fires it, the shard registers on it), hence the atomic; whichever comes second runs
 * the action.
 */
public final class CallerGone {
  private static final Runnable FIRED = () -> {};
  private final AtomicReference<Runnable> action = new AtomicReference<>();

  /**
   * For requests that never park (everything but ReceiveMessage): nothing registers on it and it
   * never fires, so one instance serves them all.
   */
  public static final CallerGone NOT_WATCHED = new CallerGone();

  /**
   * True when {@code failure} only says that the caller's connection closed: it hung up while its
   * body was being read (Vert.x fails the read with HttpClosedException on HTTP/1.x, with
   * StreamResetException when an HTTP/2 client resets the stream), or the channel was already
   * closed when something was written to it. Such a failure is the caller's doing, not a bug.
   */
  public static boolean isConnectionClosed(Throwable failure) {
    Throwable t = failure;
    for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
      if (t instanceof HttpClosedException || t instanceof StreamResetException
          || t instanceof ClosedChannelException) {
        return true;
      }
    }
    return false;
  }

  public void fire() {
    Runnable r = action.getAndSet(FIRED);
    if (r != null && r != FIRED) {
      r.run();
    }
  }

  public boolean isFired() {
    return action.get() == FIRED;
  }

  /** Runs {@code r} when the caller goes (at once if it has gone already); one action at a time. */
  public void onFire(Runnable r) {
    if (action.getAndUpdate(current -> current == FIRED ? FIRED : r) == FIRED) {
      r.run();
    }
  }
}
