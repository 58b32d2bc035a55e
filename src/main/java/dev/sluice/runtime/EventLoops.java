package dev.sluice.runtime;

import io.netty.channel.ChannelHandlerContext;
import io.vertx.core.Context;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.Vertx;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/**
 * The Vert.x internals Sluice relies on, and the only place that reaches them: Vert.x 5 keeps them
 * under {@code io.vertx.core.internal}, which may change in any release, so a Vert.x upgrade has
 * this one class to check. Each is needed for something the public API cannot do as well:
 *
 * <ul>
 *   <li>a promise whose listeners run on the context that made it, whichever thread completes it,
 *       so that a shard (or the writer) can answer a caller without a second hop;
 *   <li>running a task at once on a context whose thread is the current one, and a timer bound to
 *       a given context whatever context is current (a shard call may run in place on another
 *       shard's loop);
 *   <li>a TCP connection's Netty pipeline, to read the TCP bridge's framing before the bridge does.
 * </ul>
 *
 * Stateless.
 */
public final class EventLoops {
  private EventLoops() {}

  /** A promise answered on the calling thread's Vert.x context; a plain promise off any context. */
  public static <T> Promise<T> promiseOnCaller() {
    ContextInternal caller = ContextInternal.current();
    return caller != null ? caller.promise() : Promise.promise();
  }

  /** A promise answered on {@code context}, whichever thread completes it. */
  public static <T> Promise<T> promiseOn(Context context) {
    return ((ContextInternal) context).promise();
  }

  /** Whether the current thread is {@code context}'s event-loop thread. */
  /** A new event-loop context of its own (on one of the event loops, as Vert.x assigns them). */
  public static Context newEventLoopContext(Vertx vertx) {
    return ((VertxInternal) vertx).createEventLoopContext();
  }

  public static boolean onThreadOf(Context context) {
    return ((ContextInternal) context).inThread();
  }

  /** Runs {@code task} now, as {@code context}; the current thread must be its thread. */
  public static void runNow(Context context, Runnable task) {
    ((ContextInternal) context).dispatch(task);
  }

  /** A timer whose handler runs on {@code context}, whatever context arms it. */
  public static long setTimer(Context context, long delayMillis, Handler<Long> handler) {
    return ((ContextInternal) context).setTimer(delayMillis, handler);
  }

  /** The Netty context of a TCP connection's Vert.x handler, in its pipeline. */
  public static ChannelHandlerContext channelOf(NetSocket socket) {
    return ((NetSocketInternal) socket).channelHandlerContext();
  }
}
