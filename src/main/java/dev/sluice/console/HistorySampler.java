package dev.sluice.console;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.engine.QueueEngine;
import dev.sluice.engine.QueueSample;
import dev.sluice.engine.TopicSample;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Feeds the console's history (design/console.md §2.4): a timer every {@code sampleMillis}, on an
 * event-loop context of its own, reads every queue (at most {@link #QUEUES_PER_TURN} per shard turn)
 * and every topic, and merges the reading into the {@link ConsoleHistory} on a one-thread worker
 * ("sluice-console") that owns it, so no event loop does work in proportion to the queues. Readers
 * go through the same worker ({@link #read}) and get what they built there. A tick that finds the
 * last one unfinished is skipped; a reading not answered within {@link #timeoutMillis} is given up,
 * so a shard that never answers cannot stop the sampler.
 */
public final class HistorySampler {
  /** Page reads waiting for the worker at once; more are refused with a retryable 503. */
  public static final int MAX_PENDING_READS = 64;
  static final int QUEUES_PER_TURN = 1000;
  static final String WORKER = "sluice-console";
  private static final System.Logger LOG = System.getLogger(HistorySampler.class.getName());

  /** Where the samples come from: the engine, or a test's stand-in. */
  public interface Source {
    Future<List<QueueSample>> queues();

    Future<List<TopicSample>> topics();
  }

  private final Source source;
  private final int sampleMillis;
  private final long timeoutMillis;
  private final LongSupplier clock;
  private final ConsoleHistory history;
  private final WorkerExecutor worker;
  private final Context context;
  private final List<Consumer<ConsoleHistory>> tickListeners = new CopyOnWriteArrayList<>();
  private final AtomicBoolean busy = new AtomicBoolean();
  private final AtomicInteger pendingReads = new AtomicInteger();
  private final AtomicLong skippedTicks = new AtomicLong();
  private final AtomicLong abandonedTicks = new AtomicLong();
  private volatile boolean stopped;
  private volatile long retainedBytes;
  private volatile int series;
  private long timer = -1;

  /** A sampler of {@code engine}'s queues and topics, not started yet. */
  public static HistorySampler of(Vertx vertx, QueueEngine engine, int sampleMillis, int historySeries) {
    return new HistorySampler(vertx, new Source() {
      @Override
      public Future<List<QueueSample>> queues() {
        return engine.sampleQueues(QUEUES_PER_TURN);
      }

      @Override
      public Future<List<TopicSample>> topics() {
        return engine.sampleTopics();
      }
    }, sampleMillis, historySeries, System::currentTimeMillis);
  }

  public HistorySampler(Vertx vertx, Source source, int sampleMillis, int historySeries, LongSupplier clock) {
    this.source = source;
    this.sampleMillis = sampleMillis;
    // Two ticks: a reading slower than that is stuck (50,000 queues take about 50 ms of slices).
    this.timeoutMillis = 2L * sampleMillis;
    this.clock = clock;
    this.history = new ConsoleHistory(sampleMillis, historySeries);
    this.worker = vertx.createSharedWorkerExecutor(WORKER, 1);
    this.context = EventLoops.newEventLoopContext(vertx);
  }

  /** Starts ticking: the first tick one interval from now. */
  public void start() {
    context.runOnContext(v -> arm());
  }

  private void arm() {
    if (!stopped) {
      timer = EventLoops.setTimer(context, sampleMillis, id -> {
        tick();
        arm();
      });
    }
  }

  /** One tick now: read and merge; completes when merged, or at once when skipped. */
  Future<Void> tick() {
    if (stopped) {
      return Future.succeededFuture();
    }
    if (!busy.compareAndSet(false, true)) {
      skippedTicks.incrementAndGet();
      return Future.succeededFuture();
    }
    long now = clock.getAsLong();
    Future<List<QueueSample>> queues = source.queues();
    Future<List<TopicSample>> topics = source.topics();
    return Future.all(queues, topics).timeout(timeoutMillis, TimeUnit.MILLISECONDS)
        .compose(read -> worker.<Void>executeBlocking(() -> {
          merge(now, queues.result(), topics.result());
          return null;
        }))
        .onComplete((ok, failure) -> {
          busy.set(false);
          if (failure != null && !stopped) {
            abandonedTicks.incrementAndGet();
            // A shard that does not answer is worth a warning; one handed over mid-reading (cluster
            // mode) is expected, and the next tick reads the shards served then.
            LOG.log(failure instanceof TimeoutException ? System.Logger.Level.WARNING : System.Logger.Level.INFO,
                "console: a sample was given up: " + failure.getMessage());
          }
        });
  }

  /** On the worker. */
  private void merge(long now, List<QueueSample> queues, List<TopicSample> topics) {
    history.record(now, queues, topics);
    retainedBytes = history.retainedBytes();
    series = history.seriesCount();
    for (Consumer<ConsoleHistory> listener : tickListeners) {
      try {
        listener.accept(history);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "console: a tick listener failed", e);
      }
    }
    history.endTickEvents();
  }

  /**
   * Runs a page's {@code query} on the history's worker; its answer should be a copy (JSON, a
   * record). At most {@link #MAX_PENDING_READS} wait at once: the worker also merges the ticks, and
   * a client asking faster than it answers would otherwise grow its queue without bound (503 then,
   * retryable).
   */
  public <T> Future<T> read(Function<ConsoleHistory, T> query) {
    if (pendingReads.incrementAndGet() > MAX_PENDING_READS) {
      pendingReads.decrementAndGet();
      return Future.failedFuture(new SqsException(ErrorCode.SERVICE_UNAVAILABLE,
          "The console is answering " + MAX_PENDING_READS + " requests already; retry shortly."));
    }
    return onWorker(query).andThen(done -> pendingReads.decrementAndGet());
  }

  /** Runs {@code task} on the history's worker, never refused while it runs (a stream's release). */
  <T> Future<T> onWorker(Function<ConsoleHistory, T> task) {
    try {
      return worker.executeBlocking(() -> task.apply(history));
    } catch (RejectedExecutionException stopped) {
      return Future.failedFuture(new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "The console has stopped."));
    }
  }

  /** Called on the history's worker after each merged tick. */
  public void onTick(Consumer<ConsoleHistory> listener) {
    tickListeners.add(listener);
  }

  /** Stops ticking; completes once the worker has finished what it was given. */
  public Future<Void> stop() {
    stopped = true;
    context.runOnContext(v -> {
      if (timer >= 0) {
        context.owner().cancelTimer(timer);
      }
    });
    return worker.close();
  }

  /** The history's bytes after the last tick; for the gauge, from any thread. */
  public long retainedBytes() {
    return retainedBytes;
  }

  /** Series kept after the last tick; for the gauge, from any thread. */
  public int series() {
    return series;
  }

  /** Ticks that found the last one unfinished. */
  long skippedTicks() {
    return skippedTicks.get();
  }

  /** Ticks whose reading failed or was not answered in time. */
  long abandonedTicks() {
    return abandonedTicks.get();
  }
}
