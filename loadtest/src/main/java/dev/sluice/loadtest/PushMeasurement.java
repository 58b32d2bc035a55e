package dev.sluice.loadtest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the push probes share, so that their figures compare: the options ({@code --subscribers},
 * {@code --prefetch}, {@code --rate}, {@code --warmup}, {@code --duration}, {@code --server-pid}),
 * the measured window, a histogram per subscriber, the producer and the report. The producer sends
 * SendMessageBatch(10) at {@code --rate} messages a second from worker 0's event loop, each body
 * the time the send was issued ({@link System#nanoTime()}); a subscriber calls {@link #pushed} with
 * the time a message reached it. Latency therefore runs from the send being issued, not from when
 * it was due: a producer running late does not show. Built and read by the probe's thread; each
 * histogram is recorded on its subscriber's event loop only, and read after the run.
 */
final class PushMeasurement {
  final int subscribers;
  final int prefetch;
  private final double rate;
  private final int durationSeconds;
  private final ProcessCpu cpu;
  private final long from;
  private final long end;
  private final AtomicLong pushed = new AtomicLong();
  private final List<Histogram> histograms = new ArrayList<>();
  private long serverCpuNanos = -1;
  private long ownCpuNanos = -1;

  /** The window starts {@code --warmup} seconds from now, connecting included, as PushProbe always counted it. */
  PushMeasurement(Options o) {
    subscribers = o.integer("subscribers", 100);
    prefetch = o.integer("prefetch", 10);
    rate = o.decimal("rate", 10_000);
    durationSeconds = o.durationSeconds();
    cpu = new ProcessCpu(o.string("server-pid", ""));
    from = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.warmupSeconds());
    end = from + TimeUnit.SECONDS.toNanos(durationSeconds);
  }

  /** A new subscriber's histogram, to be recorded on that subscriber's event loop only. */
  Histogram subscriberHistogram() {
    Histogram h = new Histogram();
    histograms.add(h);
    return h;
  }

  /** A message whose body is its send time reached a subscriber at {@code nowNanos}: counted if sent inside the window. */
  void pushed(Histogram h, long nowNanos, String body) {
    long sentAt = Long.parseLong(body);
    if (sentAt >= from && sentAt < end) {
      h.record((nowNanos - sentAt) / 1000);
      pushed.incrementAndGet();
    }
  }

  /**
   * Gives the subscribers 2 s to connect and register, sends until the window ends, then waits 2 s
   * for the last pushes. With {@code --server-pid}, reads the server's and this JVM's CPU time at the
   * window's edges.
   */
  void produce(Worker producer, String queueUrl) throws Exception {
    Thread.sleep(2000); // every subscriber connected and registered
    long[] sent = {0};
    long start = System.nanoTime();
    producer.context().runOnContext(v -> producer.context().owner().setPeriodic(1, id -> {
      long now = System.nanoTime();
      if (now >= end) {
        producer.context().owner().cancelTimer(id);
        return;
      }
      long due = (long) ((now - start) * rate / 10 / 1e9);
      for (; sent[0] < due; sent[0]++) {
        producer.sqs.call("SendMessageBatch", SqsCalls.sendBatchBody(queueUrl, Long.toString(System.nanoTime()), 10));
      }
    }));
    TimeUnit.NANOSECONDS.sleep(Math.max(0, from - System.nanoTime()));
    long serverBefore = cpu.serverNanos();
    long ownBefore = ProcessCpu.ownNanos();
    TimeUnit.NANOSECONDS.sleep(Math.max(0, end - System.nanoTime()));
    serverCpuNanos = serverBefore < 0 ? -1 : cpu.serverNanos() - serverBefore;
    ownCpuNanos = ownBefore < 0 ? -1 : ProcessCpu.ownNanos() - ownBefore;
    Thread.sleep(2000);
  }

  /**
   * Prints the run's line: {@code what}, then the subscribers and their {@code prefetchName} (the
   * probe's word for the credit each holds), the offered and pushed rates and the latency; with
   * {@code --server-pid}, a second line with the CPU per message pushed.
   */
  void report(String what, String prefetchName) {
    Histogram all = new Histogram();
    histograms.forEach(all::merge);
    System.out.printf("%s, %d subscribers, %s %d, offered %.0f msgs/s: %.0f msgs/s pushed; latency %s%n",
        what, subscribers, prefetchName, prefetch, rate, pushed.get() / (double) durationSeconds, all.summary());
    if (serverCpuNanos >= 0 && pushed.get() > 0) {
      System.out.printf("  CPU per message pushed: server %.1f µs, load generator %.1f µs%n",
          serverCpuNanos / 1000.0 / pushed.get(), ownCpuNanos / 1000.0 / pushed.get());
    }
  }
}
