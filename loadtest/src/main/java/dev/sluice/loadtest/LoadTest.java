package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load generator for a running Sluice. Scenarios: send, send-batch, loop (send-batch → receive(10)
 * → delete-batch; on a FIFO queue with {@code --groups N}), wake (long-poll wake-up latency),
 * parked (server memory per parked long poll), move (DLQ redrive rate of a message move task), push
 * and push-client (push delivery over raw bridge frames, and through the Java client), and
 * fill and drain (the backlog benchmark's halves, on a queue named {@code --queue} exactly, so that
 * a drain run later finds what a fill left), availability (whether a queue serves, round by
 * round, while a script kills or stops cluster nodes), publish (SNS fan-out to N queues), trigger
 * (a queue trigger's throughput and latency to a no-op target), and outbox (the outbox relay's latency
 * from an application's commit to a consumer, and the drain of a large outbox). See loadtest/README.md for the
 * commands whose figures are in RESULTS.md. gc-pauses is no scenario: it reads a server's GC log
 * ({@link GcPauses}) and needs no server.
 */
public final class LoadTest {
  private LoadTest() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: java -jar sluice-loadtest.jar send|send-batch|loop|wake|parked|move|push|push-client|fill|drain|availability|publish|trigger|outbox [--option value]...");
      System.err.println("       java -jar sluice-loadtest.jar gc-pauses gc.log [out.csv]");
      System.exit(2);
    }
    if (args[0].equals("gc-pauses")) { // before any Vert.x or queue: it only reads a file
      GcPauses.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    String scenario = args[0];
    Options o = new Options(args, 1);
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(o.workers()));
    try {
      int connectionsPerWorker = Math.max(1, scenario.equals("parked") ? o.integer("parked", 10_000) / o.workers() + 16
          : Math.max(o.users(), o.integer("consumers", 100)) / o.workers() + 2);
      List<Worker> workers = new ArrayList<>();
      for (int i = 0; i < o.workers(); i++) {
        Worker w = new Worker(o.url(), connectionsPerWorker);
        vertx.deployVerticle(w).await(10, TimeUnit.SECONDS);
        workers.add(w);
      }
      boolean fifo = o.groups() > 0;
      // fill, drain and availability work on a queue named exactly, and so does any scenario given
      // --queue-name (a cluster benchmark picks a name whose shard a given node holds)
      boolean exact = scenario.equals("fill") || scenario.equals("drain") || scenario.equals("availability")
          || !o.string("queue-name", "").isEmpty();
      String queue = !o.string("queue-name", "").isEmpty() ? o.string("queue-name", "") : exact ? o.queue()
          : o.queue() + "-" + scenario + "-" + System.currentTimeMillis() + (fifo ? ".fifo" : "");
      JsonObject create = new JsonObject().put("QueueName", queue);
      if (fifo) {
        create.put("Attributes", new JsonObject().put("FifoQueue", "true"));
      }
      // A drain must find the queue a fill left, not make an empty one and report it drained.
      String queueUrl = workers.get(0).sqs.call(scenario.equals("drain") ? "GetQueueUrl" : "CreateQueue", create)
          .await(10, TimeUnit.SECONDS).getString("QueueUrl");
      System.out.printf("scenario %s, queue %s, %d users over %d client event loops, %s, %d cores%n",
          scenario, queue, o.users(), o.workers(), Runtime.version(), Runtime.getRuntime().availableProcessors());
      // The outbox scenario's --prefill is rows in the outbox, not messages in the queue.
      Prefill.run(workers, queueUrl, scenario.equals("outbox") ? 0 : o.integer("prefill", 0), o.bodyBytes());
      String body = "x".repeat(o.bodyBytes());
      switch (scenario) {
        case "send" -> {
          Buffer request = SqsCalls.sendBody(queueUrl, body);
          report("SendMessage", measure(o, workers, sqs -> sqs.call("SendMessage", request).map(r -> 1)), o);
        }
        case "send-batch" -> {
          Buffer request = SqsCalls.sendBatchBody(queueUrl, body, 10);
          report("SendMessageBatch", measure(o, workers, sqs -> sqs.call("SendMessageBatch", request).map(r -> 10)), o);
        }
        case "loop" -> {
          Buffer standardSend = SqsCalls.sendBatchBody(queueUrl, body, 10);
          AtomicLong sequence = new AtomicLong();
          int groups = o.groups();
          Buffer receive = SqsCalls.receiveBody(queueUrl, 10, 0);
          report("send-batch → receive(10) → delete-batch" + (fifo ? " (FIFO, " + groups + " groups)" : ""),
              measure(o, workers, sqs -> sqs
              .call("SendMessageBatch", fifo
                  ? SqsCalls.sendFifoBatchBody(queueUrl, body, 10, groups, sequence.getAndAdd(10))
                  : standardSend)
              .compose(sent -> sqs.call("ReceiveMessage", receive))
              .compose(got -> {
                Buffer delete = SqsCalls.deleteBatchBody(queueUrl, got);
                return delete == null ? Future.succeededFuture(0)
                    : sqs.call("DeleteMessageBatch", delete).map(r -> r.getJsonArray("Successful").size());
              })), o);
        }
        case "wake" -> WakeProbe.run(workers, queueUrl, o);
        case "parked" -> ParkedProbe.run(workers, queueUrl, o);
        case "move" -> MoveProbe.run(workers, queueUrl, o);
        case "push" -> PushProbe.run(workers, queueUrl, o);
        case "push-client" -> ClientPushProbe.run(workers, queueUrl, o);
        case "fill" -> Fill.run(workers, queueUrl, o);
        case "drain" -> Drain.run(workers, queueUrl, o);
        case "availability" -> AvailabilityProbe.run(workers.get(0), queueUrl, o);
        case "publish" -> PublishProbe.run(workers, queue, o);
        case "trigger" -> TriggerProbe.run(workers, queueUrl, o);
        case "outbox" -> OutboxProbe.run(workers, queueUrl, o);
        default -> throw new IllegalArgumentException("unknown scenario " + scenario);
      }
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Runs the iteration on every worker, closed loop ({@code --users}) or, with {@code --rate}
   * requests/s, open loop; with {@code --out DIR} writes the run's histograms there, and with
   * {@code --server-pid} reads the server's CPU over the measured window.
   */
  static Recording measure(Options o, List<Worker> workers, Iteration iteration) throws Exception {
    // Starts a little ahead, so every worker's schedule begins from the same instant.
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
    long from = start + TimeUnit.SECONDS.toNanos(o.warmupSeconds());
    long end = from + TimeUnit.SECONDS.toNanos(o.durationSeconds());
    long fromEpochMillis = System.currentTimeMillis() + TimeUnit.NANOSECONDS.toMillis(from - System.nanoTime());
    List<Future<Recording>> runs = new ArrayList<>();
    int usersPerWorker = Math.max(1, o.users() / workers.size());
    double rate = o.decimal("rate", 0); // requests per second in all; 0 = closed loop
    for (int i = 0; i < workers.size(); i++) {
      Worker w = workers.get(i);
      runs.add(rate > 0 ? w.runAtRate(iteration, OpenLoopSchedule.of(start, rate, i, workers.size()), from, end)
          : w.run(iteration, usersPerWorker, from, end));
    }
    // CPU over the measured window only, read by this (non-event-loop) thread at its edges.
    ProcessCpu cpu = new ProcessCpu(o.string("server-pid", ""));
    TimeUnit.NANOSECONDS.sleep(Math.max(0, from - System.nanoTime()));
    long serverBefore = cpu.serverNanos();
    long ownBefore = ProcessCpu.ownNanos();
    TimeUnit.NANOSECONDS.sleep(Math.max(0, end - System.nanoTime()));
    long serverSpent = serverBefore < 0 ? -1 : cpu.serverNanos() - serverBefore;
    long ownSpent = ownBefore < 0 ? -1 : ProcessCpu.ownNanos() - ownBefore;
    Recording all = new Recording(rate > 0, from);
    for (Future<Recording> f : runs) {
      all.merge(f.await(o.warmupSeconds() + o.durationSeconds() + 60L, TimeUnit.SECONDS));
    }
    all.cpuSpent(serverSpent, ownSpent);
    String out = o.string("out", "");
    if (!out.isEmpty()) {
      all.write(Path.of(out), fromEpochMillis);
    }
    return all;
  }

  /** Waits until every loop has ended, at most {@code seconds}; the first failure, or null. */
  static Exception awaitAll(List<Future<Void>> loops, long seconds) {
    try {
      Future.join(loops).await(seconds, TimeUnit.SECONDS);
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  static void report(String what, Recording r, Options o) {
    double seconds = o.durationSeconds();
    System.out.printf("%s: %.0f req/s, %.0f msgs/s, errors %d; %s %s%n", what, r.operations / seconds,
        r.messages / seconds, r.errors, r.openLoop ? "response time (from due)" : "latency", r.latency.summary());
    if (r.serverCpuNanos >= 0 && r.operations > 0) {
      System.out.printf("  CPU per request: server %.1f µs, load generator %.1f µs%n",
          r.serverCpuNanos / 1000.0 / r.operations, r.ownCpuNanos / 1000.0 / r.operations);
    }
    if (r.openLoop) {
      System.out.printf("  service time (from sent) %s%n  generator lag %s%n", r.service.summary(), r.lag.summary());
      if (r.unstarted > 0) {
        System.out.printf("  INVALID RUN: %d due requests could not start (%d open per worker): the rate is"
            + " beyond what the server answers%n", r.unstarted, Worker.MAX_OUTSTANDING);
      }
    }
  }
}
