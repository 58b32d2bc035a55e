package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The trigger benchmark (design/triggers.md §4, step 8): messages a second through a trigger to a
 * no-op target ({@link NoopTarget}, in this JVM), and the latency from send to handler.
 *
 * <p><b>Warm-up</b> (with {@code --warmup-messages M}): M messages through a trigger on a queue of
 * their own, so that the phases below measure compiled code, not the JIT compiler at work.
 *
 * <p><b>Throughput:</b> a disabled trigger on the scenario's queue, the queue filled with
 * {@code --messages} of {@code --body-bytes} (SendMessageBatch, closed loops), then the trigger
 * enabled; the rate runs from the first invoke to the arrival of the last of those messages, and
 * the run waits for the queue to be empty (the trigger deletes after the target's answer). The
 * trigger's pollers are sampled through the admin API meanwhile.
 *
 * <p><b>Latency:</b> a second queue and an enabled trigger; SendMessage in an open loop at
 * {@code --latency-rate} messages a second, or {@code --rate-fraction} (0.5) of the measured
 * throughput, for {@code --warmup} + {@code --duration} seconds ({@link PacedSender}); latency is
 * the arrival at the target minus the message's intended send time.
 *
 * <p>A trigger is deleted as soon as its phase ends, so that its idle pollers do not weigh on the
 * next. {@code --concurrency 1} is {@code MaximumConcurrency} 2 (the API's least) with
 * {@code MaxConcurrentRequests} 1; any other value sets both.
 */
final class TriggerProbe {
  private static final long LOOK_MILLIS = 20;
  private static final long SAMPLE_MILLIS = 250;

  private final List<Worker> workers;
  private final Options o;
  private final MappingCalls mappings;
  private final NoopTarget target;
  private final ProcessCpu cpu;
  private final int concurrency;
  private final int batch;
  private final String label;
  private boolean complete = true;

  private TriggerProbe(List<Worker> workers, Options o, MappingCalls mappings, NoopTarget target) {
    this.workers = workers;
    this.o = o;
    this.mappings = mappings;
    this.target = target;
    this.cpu = new ProcessCpu(o.string("server-pid", ""));
    this.concurrency = o.integer("concurrency", 10);
    this.batch = o.integer("batch", 10);
    this.label = String.format(Locale.ROOT, "concurrency %d, batch %d, %d-byte bodies", concurrency, batch,
        o.bodyBytes());
  }

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    String token = o.string("token", System.getenv().getOrDefault("SLUICE_MANAGEMENT_TOKEN", ""));
    if (token.isEmpty()) {
      throw new IllegalArgumentException("the management token: --token or SLUICE_MANAGEMENT_TOKEN");
    }
    Vertx vertx = workers.get(0).context().owner();
    NoopTarget target = new NoopTarget();
    vertx.deployVerticle(target).await(10, TimeUnit.SECONDS);
    try (MappingCalls mappings = new MappingCalls(vertx, o.url(), token)) {
      TriggerProbe probe = new TriggerProbe(workers, o, mappings, target);
      if (o.integer("warmup-messages", 0) > 0) {
        probe.warmUp(queueName(queueUrl) + "-warmup", o.integer("warmup-messages", 0));
      }
      double throughput = o.integer("messages", 200_000) > 0 ? probe.throughput(queueUrl) : 0;
      double rate = o.decimal("latency-rate", 0) > 0 ? o.decimal("latency-rate", 0)
          : o.decimal("rate-fraction", 0.5) * throughput;
      if (rate > 0 && o.durationSeconds() > 0) {
        probe.latency(queueName(queueUrl) + "-latency", rate);
      }
      if (!probe.complete) {
        throw new IllegalStateException("the run did not complete: see the lines above");
      }
    }
  }

  /**
   * Messages through an enabled trigger on a queue of their own, filled while it runs, before
   * anything is measured: a fresh server (and this JVM) would otherwise spend the measured seconds
   * compiling the send, receive, invoke and delete paths.
   */
  private void warmUp(String queue, int messages) throws Exception {
    String queueUrl = createQueue(queue);
    Arrivals arrivals = new Arrivals();
    // Concurrency 10 and batch 10 whatever is measured: the code is the same, and a warm-up at
    // concurrency 1 and batch 1 would take many times longer.
    String uuid = mappings.create(mapping(queueUrl, target.register("warmup", arrivals), true, 10, 10));
    try {
      long start = System.nanoTime();
      int sent = (messages + 9) / 10 * 10;
      Prefill.run(workers, queueUrl, sent, o.bodyBytes());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.integer("max-seconds", 120));
      while (arrivals.distinct() < sent && System.nanoTime() < deadline) {
        Thread.sleep(LOOK_MILLIS);
      }
      System.out.printf(Locale.ROOT, "trigger warm-up: %d of %d messages through a trigger in %.1f s%n",
          arrivals.distinct(), sent, (System.nanoTime() - start) / 1e9);
    } finally {
      mappings.delete(uuid);
    }
  }

  /** The throughput phase; its messages a second (0 when none arrived). */
  private double throughput(String queueUrl) throws Exception {
    int messages = (o.integer("messages", 200_000) + 9) / 10 * 10; // whole batches of ten
    Arrivals arrivals = new Arrivals();
    String uuid = mappings.create(mapping(queueUrl, target.register("throughput", arrivals), false));
    try {
      Prefill.run(workers, queueUrl, messages, o.bodyBytes());
      long queued = count(queueUrl);
      if (queued != messages) {
        throw new IllegalStateException("the queue holds " + queued + " messages, not " + messages
            + " (a send refused for memory?)");
      }
      long serverCpu = cpu.serverNanos();
      long ownCpu = ProcessCpu.ownNanos();
      long connections = target.connections();
      long enabled = System.nanoTime();
      mappings.enable(uuid);
      long deadline = enabled + TimeUnit.SECONDS.toNanos(o.integer("max-seconds", 120));
      PollerSamples samples = new PollerSamples();
      long nextSample = enabled;
      while (arrivals.distinct() < messages && System.nanoTime() < deadline) {
        if (System.nanoTime() >= nextSample) {
          samples.add(mappings.get(uuid));
          nextSample += TimeUnit.MILLISECONDS.toNanos(SAMPLE_MILLIS);
        }
        Thread.sleep(LOOK_MILLIS);
      }
      connections = target.connections() - connections;
      serverCpu = serverCpu < 0 ? -1 : cpu.serverNanos() - serverCpu;
      ownCpu = ownCpu < 0 ? -1 : ProcessCpu.ownNanos() - ownCpu;
      Arrivals.Snapshot s = arrivals.snapshot();
      long emptyAfter = waitEmpty(queueUrl, s.lastNewRecordNanos());
      double seconds = s.invokes() == 0 ? 0 : (s.lastNewRecordNanos() - s.firstInvokeNanos()) / 1e9;
      double rate = seconds > 0 ? s.distinct() / seconds : 0;
      boolean all = s.distinct() == messages;
      complete &= all && emptyAfter >= 0;
      System.out.printf(Locale.ROOT, "trigger throughput: %s: %.0f msgs/s (%d of %d messages in %.2f s from the"
              + " first invoke%s); first invoke %.0f ms after enabling, queue %s; %d invokes, %.2f records/invoke"
              + " (largest %d), %d redelivered, %d connections to the target; pollers max %d, invoking max %d;"
              + " CPU per message: server %s, load generator %s%n",
          label, rate, s.distinct(), messages, seconds, all ? "" : ", INCOMPLETE after --max-seconds",
          s.invokes() == 0 ? Double.NaN : (s.firstInvokeNanos() - enabled) / 1e6,
          emptyAfter < 0 ? "NOT EMPTY 10 s after the last record" : "empty " + emptyAfter / 1_000_000 + " ms after it",
          s.invokes(), s.recordsPerInvoke(), s.largestBatch(), s.duplicates(), connections, samples.maxPollers,
          samples.maxInvoking, perMessage(serverCpu, s.distinct()), perMessage(ownCpu, s.distinct()));
      System.out.println("trigger pollers every " + SAMPLE_MILLIS + " ms: " + samples.trace);
      reportProblems(uuid);
      return rate;
    } finally {
      mappings.delete(uuid);
    }
  }

  /** The latency phase on a queue of its own, {@code queue}, at {@code rate} messages a second. */
  private void latency(String queue, double rate) throws Exception {
    String queueUrl = createQueue(queue);
    long origin = System.nanoTime();
    // The trigger's pollers start within a tick of its creation; the warm-up covers their first receives.
    long start = origin + TimeUnit.MILLISECONDS.toNanos(500);
    long from = start + TimeUnit.SECONDS.toNanos(o.warmupSeconds());
    long end = from + TimeUnit.SECONDS.toNanos(o.durationSeconds());
    Arrivals arrivals = new Arrivals(origin, from, end);
    String uuid = mappings.create(mapping(queueUrl, target.register("latency", arrivals), true));
    try {
      Future<PacedSender.Result> sending = PacedSender.run(workers, queueUrl, o.bodyBytes(), rate, origin, start,
          from, end);
      PollerSamples samples = new PollerSamples();
      long nextSample = start;
      long giveUp = end + TimeUnit.SECONDS.toNanos(60);
      while (!sending.isComplete() && System.nanoTime() < giveUp) {
        if (System.nanoTime() >= nextSample) {
          samples.add(mappings.get(uuid));
          nextSample += TimeUnit.MILLISECONDS.toNanos(SAMPLE_MILLIS);
        }
        Thread.sleep(LOOK_MILLIS);
      }
      PacedSender.Result sent = sending.await(1, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.integer("grace-seconds", 10));
      while (arrivals.inWindow() < sent.acknowledged() && System.nanoTime() < deadline) {
        Thread.sleep(LOOK_MILLIS);
      }
      Arrivals.Snapshot s = arrivals.snapshot();
      long missing = sent.acknowledged() - s.inWindow();
      complete &= missing == 0 && sent.failed() == 0;
      Histogram h = s.fromIntended();
      System.out.printf(Locale.ROOT, "trigger latency: %s: %.0f msgs/s offered for %d s after %d s of warm-up:"
              + " %d sent, %d arrived, %d missing, %d sends failed; intended send → handler p50 %s, p99 %s,"
              + " p99.9 %s, max %s; SentTimestamp → handler p50 %s, p99 %s; %.2f records/invoke%n",
          label, rate, o.durationSeconds(), o.warmupSeconds(), sent.acknowledged(), s.inWindow(), missing,
          sent.failed(), ms(h.quantile(0.50)), ms(h.quantile(0.99)), ms(h.quantile(0.999)), ms(h.quantile(1.0)),
          ms(s.fromSentTimestamp().quantile(0.50)), ms(s.fromSentTimestamp().quantile(0.99)),
          s.recordsPerInvoke());
      System.out.println("trigger pollers every " + SAMPLE_MILLIS + " ms while sending: " + samples.trace);
      reportProblems(uuid);
    } finally {
      mappings.delete(uuid);
    }
  }

  private JsonObject mapping(String queueUrl, String functionUrl, boolean enabled) {
    return mapping(queueUrl, functionUrl, enabled, concurrency, batch);
  }

  private JsonObject mapping(String queueUrl, String functionUrl, boolean enabled, int requests, int batchSize) {
    URI u = URI.create(queueUrl);
    String[] path = u.getPath().split("/"); // "", account, queue
    String arn = "arn:aws:sqs:" + o.string("region", "us-east-1") + ":" + path[1] + ":" + path[2];
    return new JsonObject().put("EventSourceArn", arn).put("FunctionName", functionUrl).put("BatchSize", batchSize)
        .put("ScalingConfig", new JsonObject().put("MaximumConcurrency", Math.max(2, requests)))
        .put("Enabled", enabled)
        .put("TargetConfig", new JsonObject().put("TimeoutSeconds", o.integer("timeout-seconds", 30))
            .put("MaxConcurrentRequests", requests));
  }

  /** A trigger's last error, when it has one: a benchmark whose target failed is no benchmark. */
  private void reportProblems(String uuid) throws Exception {
    JsonObject m = mappings.get(uuid);
    if (m.getJsonObject("LastError") != null) {
      System.out.println("trigger last error: " + m.getJsonObject("LastError").encode());
    }
  }

  private String createQueue(String queue) throws Exception {
    return workers.get(0).sqs.call("CreateQueue", new JsonObject().put("QueueName", queue))
        .await(10, TimeUnit.SECONDS).getString("QueueUrl");
  }

  private static String queueName(String queueUrl) {
    return queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
  }

  /** Visible, in-flight and delayed messages of the queue. */
  private long count(String queueUrl) throws Exception {
    JsonObject answer = workers.get(0).sqs.call("GetQueueAttributes", new JsonObject().put("QueueUrl", queueUrl)
            .put("AttributeNames", new JsonArray().add("ApproximateNumberOfMessages")
                .add("ApproximateNumberOfMessagesNotVisible").add("ApproximateNumberOfMessagesDelayed")))
        .await(10, TimeUnit.SECONDS);
    JsonObject a = answer.getJsonObject("Attributes");
    return a.fieldNames().stream().mapToLong(name -> Long.parseLong(a.getString(name))).sum();
  }

  /** Nanoseconds from {@code sinceNanos} until the queue was seen empty, or -1 if not within 10 s. */
  private long waitEmpty(String queueUrl, long sinceNanos) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (count(queueUrl) == 0) {
        return Math.max(0, System.nanoTime() - sinceNanos);
      }
      Thread.sleep(LOOK_MILLIS);
    }
    return -1;
  }

  private static String perMessage(long cpuNanos, long messages) {
    return cpuNanos < 0 || messages == 0 ? "n/a" : String.format(Locale.ROOT, "%.0f us", cpuNanos / 1e3 / messages);
  }

  private static String ms(long micros) {
    return String.format(Locale.ROOT, "%.2f ms", micros / 1000.0);
  }
}
