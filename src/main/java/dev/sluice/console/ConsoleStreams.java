package dev.sluice.console;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The console's live-update streams (design/console.md §2.6, §2.7): at most {@code maxStreams}
 * server-wide; each gets its snapshot at once (or, for a queue not sampled yet, with the first tick
 * that has it: {@link QueueStream}), an event after every tick, and a {@code : ping}
 * comment every {@code pingMillis} so that proxies keep it open. A tick that finds a stream's write
 * queue full is skipped for it, and {@link #MAX_SKIPPED_TICKS} skipped in a row end it. A stream
 * whose connection closes frees its slot at once; {@link #stop} ends them all. Events are built on
 * the history's worker and written on each stream's own context.
 */
public final class ConsoleStreams {
  public static final int WRITE_QUEUE_BYTES = 256 * 1024;
  public static final int MAX_SKIPPED_TICKS = 12;
  public static final long PING_MILLIS = 15_000;
  public static final String RETRY_AFTER_SECONDS = "30";
  static final String PING = ": ping\n\n";

  private final HistorySampler sampler;
  private final int maxStreams;
  private final long pingMillis;
  private final AtomicInteger taken = new AtomicInteger();
  private final Set<LiveStream> open = ConcurrentHashMap.newKeySet();
  private volatile boolean stopped;

  public ConsoleStreams(HistorySampler sampler, int maxStreams) {
    this(sampler, maxStreams, PING_MILLIS);
  }

  public ConsoleStreams(HistorySampler sampler, int maxStreams, long pingMillis) {
    this.sampler = sampler;
    this.maxStreams = maxStreams;
    this.pingMillis = pingMillis;
    sampler.onTick(this::ticked);
  }

  /**
   * Opens a stream on {@code context} (the request's): fails with TooManyStreams when every slot is
   * taken, ServiceUnavailable once stopped, or with the view's own refusal, before anything is written.
   */
  public Future<Void> open(Context context, EventSink sink, StreamView view) {
    if (stopped) {
      return Future.failedFuture(new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "Sluice is shutting down."));
    }
    if (!reserve()) {
      return Future.failedFuture(new SqsException(ErrorCode.TOO_MANY_STREAMS,
          "The console has " + maxStreams + " live-update streams open already (console.maxStreams)."));
    }
    LiveStream stream = new LiveStream(context, sink, view);
    Promise<Void> opened = Promise.promise();
    // Added in the worker task that builds the snapshot, so every tick merged after it reaches the stream.
    sampler.read(h -> {
      StreamEvent first = view.open(h);
      open.add(stream);
      return first;
    }).onComplete((first, failure) -> {
      Runnable answer = () -> {
        if (failure != null) {
          taken.decrementAndGet();
          opened.fail(failure);
          return;
        }
        if (stopped) {
          // Stopped while its snapshot was built: answered like any stream asked for at a stop.
          stream.release();
          opened.fail(new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "Sluice is shutting down."));
          return;
        }
        stream.begin(first);
        opened.complete();
      };
      // Called on the request's context, the answer comes back there before any tick's event.
      if (EventLoops.onThreadOf(context)) {
        answer.run();
      } else {
        context.runOnContext(v -> answer.run());
      }
    });
    return opened.future();
  }

  private boolean reserve() {
    while (true) {
      int n = taken.get();
      if (n >= maxStreams) {
        return false;
      }
      if (taken.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** On the history's worker, after each merged tick. */
  private void ticked(ConsoleHistory h) {
    for (LiveStream s : open) {
      StreamEvent event = s.view.tick(h);
      if (event != null) {
        s.ticked(event);
      }
    }
  }

  /** Streams open now (slots taken, those being opened included). */
  public int openStreams() {
    return taken.get();
  }

  /** Ends every stream and refuses new ones; completes once each has been ended on its context. */
  public Future<Void> stop() {
    stopped = true;
    List<Future<Void>> ended = new ArrayList<>();
    for (LiveStream s : open) {
      Promise<Void> done = Promise.promise();
      s.context.runOnContext(v -> {
        s.close();
        done.complete();
      });
      ended.add(done.future());
    }
    return Future.join(ended).mapEmpty();
  }

  /** One open stream; its sink is touched only on its context. */
  private final class LiveStream {
    final Context context;
    final EventSink sink;
    final StreamView view;
    private int skippedInARow;
    private long pingTimer = -1;
    private boolean begun;
    private boolean closed;

    LiveStream(Context context, EventSink sink, StreamView view) {
      this.context = context;
      this.sink = sink;
      this.view = view;
    }

    void begin(StreamEvent first) {
      begun = true;
      sink.onClose(this::close);
      if (sink.closed()) {
        // It went away while its snapshot was being built: the close handler set just now never runs.
        close();
        return;
      }
      sink.begin();
      if (first != null) {
        sink.write(first.frame());
      }
      pingTimer = context.owner().setPeriodic(pingMillis, id -> context.runOnContext(v -> {
        if (!closed) {
          sink.write(PING);
        }
      }));
    }

    /** From the worker: the event is written on the stream's context, or skipped there. */
    void ticked(StreamEvent event) {
      context.runOnContext(v -> deliver(event));
    }

    private void deliver(StreamEvent event) {
      // Only a stream opened off its own context can see a tick before its snapshot is written: that
      // event is dropped, and the next tick brings the row again.
      if (closed || !begun) {
        return;
      }
      if (sink.writeQueueFull()) {
        if (++skippedInARow >= MAX_SKIPPED_TICKS) {
          close();
        }
        return;
      }
      skippedInARow = 0;
      sink.write(event.frame());
      if (event.last()) {
        close();
      }
    }

    /**
     * On the stream's context; frees its slot at once. A stream not begun yet is answered by
     * {@link #open}'s completion (503 once stopped), so its response is left to it.
     */
    void close() {
      if (release() && begun) {
        sink.end();
      }
    }

    /** Frees its slot, its timer and its view; false when that was done already. */
    boolean release() {
      if (closed) {
        return false;
      }
      closed = true;
      if (pingTimer >= 0) {
        context.owner().cancelTimer(pingTimer);
      }
      if (open.remove(this)) {
        taken.decrementAndGet();
        sampler.onWorker(h -> {
          view.close(h);
          return null;
        });
      }
      return true;
    }
  }
}
