package dev.sluice.invoke;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.api.triggers.EventSourceMapping.LastError;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.TriggerMetrics;
import dev.sluice.outbound.OutboundHttp;
import dev.sluice.outbound.OutboundRequest;
import dev.sluice.outbound.OutboundSettings;
import dev.sluice.triggers.EventFilter;
import dev.sluice.triggers.InvokeOutcome;
import dev.sluice.triggers.PollerScaling;
import dev.sluice.triggers.Trigger;
import dev.sluice.triggers.TriggerStatus;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One trigger running (design/triggers.md §2.6-2.7), a verticle of its own so that its pollers,
 * scaling and client share one event loop: 1 to its effective concurrency {@link Poller}s, a tick
 * a second that scales them ({@link PollerScaling}) and re-reads its queue's visibility timeout,
 * and an HTTP client of its own whose pool is that concurrency, so that a request never waits for
 * a connection. Changes of the definition come from any thread ({@link #update}) and apply on the
 * loop; a batch already gathered keeps the settings it was gathered under. Undeployed, it stops its
 * pollers and waits (at most its target's timeout) for the invokes in flight to settle.
 */
final class TriggerRunner extends VerticleBase {
  static final long TICK_MILLIS = 1_000;
  /** A receive answered sooner found its records waiting: the queue has a backlog. */
  static final long BACKLOG_RECEIVE_MILLIS = 100;
  /** What the target's answer may hold besides its item failures (design/triggers.md §2.5). */
  static final int ANSWER_BYTES = 65_536;
  static final int ANSWER_BYTES_PER_RECORD = 128;
  static final String USER_AGENT = "Sluice-Trigger/1";

  private final TriggerService service;
  private final QueueEngine engine;
  private final OutboundSettings outbound;
  private final TriggerMetrics metrics;
  private final TriggerQueue queue;
  private volatile Trigger latest;
  private volatile boolean started;
  private volatile TriggerStatus status = TriggerStatus.NOT_STARTED;

  // Owned by the loop.
  private TriggerMetrics.Recorder recorder;
  private Trigger trigger;
  private OutboundHttp client;
  private PollerScaling scaling;
  private EventFilter filter;
  private final List<Poller> pollers = new ArrayList<>();
  private int invoking;
  private int visibilitySeconds;
  private long backoffUntilMillis;
  private boolean stopping;
  private Promise<Void> drained;
  private String lastResult = TriggerStatus.NOT_STARTED.lastProcessingResult();
  private LastError lastError;
  // What the pollers saw since the last tick.
  private int receives;
  private int fullReceives;
  private int idleReceives;
  private int successes;
  private InvokeOutcome.ErrorKind worstFailure;

  TriggerRunner(TriggerService service, QueueEngine engine, OutboundSettings outbound, TriggerMetrics metrics,
      Trigger trigger) {
    this.service = service;
    this.engine = engine;
    this.outbound = outbound;
    this.metrics = metrics;
    this.latest = trigger;
    this.queue = new TriggerQueue(engine, trigger);
    this.visibilitySeconds = trigger.target().timeoutSeconds();
  }

  @Override
  public Future<?> start() {
    Trigger t = latest;
    recorder = metrics.recorder(t.id().toString(), t.queue().name(), t.queue().accountId(), t.queue().region(),
        () -> status.invoking(), () -> status.pollers());
    vertx.setPeriodic(TICK_MILLIS, id -> tick());
    // The pollers start knowing the queue's visibility timeout, which their batches' deadlines count from.
    return refreshVisibility().transform(known -> {
      started = true;
      apply();
      return Future.succeededFuture();
    });
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    stopPollers();
    if (client == null || invoking == 0) {
      closeClient();
      return Future.succeededFuture();
    }
    drained = Promise.promise();
    long timer = vertx.setTimer(trigger.target().timeoutSeconds() * 1000L + TICK_MILLIS, t -> drained.tryComplete());
    return drained.future().onComplete(done -> {
      vertx.cancelTimer(timer);
      closeClient();
    });
  }

  private void closeClient() {
    recorder.close();
    if (client != null) {
      client.close();
    }
  }

  /** From any thread: the trigger's definition changed. */
  void update(Trigger changed) {
    latest = changed;
    if (started) {
      context.runOnContext(v -> apply());
    }
  }

  TriggerStatus status() {
    return status;
  }

  /** Brings the running trigger in line with its latest definition. */
  private void apply() {
    Trigger t = latest;
    if (t == trigger || stopping) {
      return;
    }
    Trigger was = trigger;
    trigger = t;
    if (was == null || !t.target().equals(was.target()) || t.effectiveConcurrency() != was.effectiveConcurrency()) {
      OutboundHttp old = client;
      client = new OutboundHttp(vertx, context, new OutboundSettings(outbound.connectTimeoutMillis(),
          t.target().timeoutSeconds() * 1000, t.effectiveConcurrency(), t.effectiveConcurrency(),
          outbound.allowPrivateAddresses()), t.target().verifyTls());
      if (old != null) {
        // Its invokes under way finish first: none outlives its timeout.
        vertx.setTimer(was.target().timeoutSeconds() * 1000L + TICK_MILLIS, tm -> old.close());
      }
    }
    if (was == null || t.effectiveConcurrency() != was.effectiveConcurrency()
        || t.settings().reportBatchItemFailures() != was.settings().reportBatchItemFailures()) {
      scaling = new PollerScaling(t.effectiveConcurrency(), t.settings().reportBatchItemFailures());
    }
    if (was == null || !t.filterPatterns().equals(was.filterPatterns())) {
      filter = new EventFilter(t.filterPatterns());
    }
    if (t.enabled()) {
      fill();
    } else {
      stopPollers();
    }
    publish();
  }

  private void tick() {
    if (!started || stopping) {
      return;
    }
    refreshVisibility();
    scaling.tick(new PollerScaling.Tick(receives, fullReceives, idleReceives, successes, worstFailure));
    if (worstFailure != null && worstFailure.backsOff()) {
      backoffUntilMillis = System.currentTimeMillis() + scaling.backoffMillis();
    }
    receives = 0;
    fullReceives = 0;
    idleReceives = 0;
    successes = 0;
    worstFailure = null;
    if (trigger.enabled()) {
      fill();
    }
    publish();
  }

  /** Starts pollers up to what scaling wants, as far as the server's cap lets it. */
  private void fill() {
    while (!stopping && trigger.enabled() && pollers.size() < scaling.target() && service.takePoller()) {
      Poller p = new Poller(this);
      pollers.add(p);
      p.start();
    }
  }

  private void stopPollers() {
    for (Poller p : new ArrayList<>(pollers)) {
      retire(p);
      p.stop();
    }
  }

  private boolean retire(Poller p) {
    if (pollers.remove(p)) {
      service.releasePoller();
      return true;
    }
    return false;
  }

  /** Asked by a poller before each turn: whether it is one too many now (and so ends). */
  boolean shouldEnd(Poller p) {
    return (stopping || !trigger.enabled() || pollers.size() > scaling.target()) && retire(p);
  }

  /** Asked by a poller whose long poll came back empty: whether it ends. */
  boolean idleMayEnd(Poller p) {
    return scaling.idleMayEnd(pollers.size()) && retire(p);
  }

  long backoffLeftMillis() {
    return Math.max(0, backoffUntilMillis - System.currentTimeMillis());
  }

  /**
   * A receive came back with {@code received} of the {@code wanted} records after {@code tookMillis}.
   * It counts as full, a sign of a backlog that more pollers would drain, only when it found them
   * waiting: one a send woke from its long poll found a trickle, which more pollers would not speed
   * up (with BatchSize 1 every receive that gets a record would count as full otherwise).
   */
  void noteReceive(int received, int wanted, long tookMillis) {
    receives++;
    if (received == 0) {
      idleReceives++;
    } else if (received >= wanted && tookMillis < BACKLOG_RECEIVE_MILLIS) {
      fullReceives++;
    }
  }

  /**
   * A receive failed: true when the queue refused it (gone, or not the owner's to read), which is
   * the trigger's last error; false when the server was busy.
   */
  boolean receiveFailed(Throwable failure) {
    if (failure instanceof SqsException e && (e.code() == ErrorCode.SERVICE_UNAVAILABLE
        || e.code() == ErrorCode.REQUEST_THROTTLED || e.code() == ErrorCode.OVER_LIMIT)) {
      return false;
    }
    failed(null, "queue", 0, 0, "receiving from " + queue.arn() + " failed: " + failure.getMessage());
    return true;
  }

  void noteFiltered(int records) {
    recorder.records("filtered", records);
  }

  /**
   * A batch of {@code records} settled as {@code outcome} says, {@code deleted} of them deleted and
   * {@code late} of those refused (their receipts had expired: they come again).
   */
  void settled(InvokeOutcome outcome, int records, int deleted, int late) {
    int failed = outcome.response().wholeBatchFailed() ? records : outcome.response().failed().size();
    recorder.records("deleted", deleted - late);
    recorder.records("late", late);
    recorder.records("failed", failed);
    recorder.records("fifo_after_failure", records - deleted - failed);
  }

  void noteMemoryRefusal(int records) {
    failed(null, "memory", 0, records, "the server's memory budget is spent; the batch went back to the queue");
  }

  /**
   * Posts {@code event}, the batch of {@code ids} whose oldest was sent at {@code oldestSentMillis},
   * and answers what the target's answer means.
   */
  Future<InvokeOutcome> invoke(String event, List<String> ids, long oldestSentMillis) {
    Trigger t = trigger;
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("User-Agent", USER_AGENT);
    headers.put("X-Sluice-Trigger", t.id().toString());
    if (t.target().protocol() == InvokeOutcome.Protocol.LAMBDA) {
      headers.put("X-Amz-Invocation-Type", "RequestResponse");
    }
    headers.putAll(t.target().headers());
    invoking++;
    publish();
    long startNanos = System.nanoTime();
    return client.post(new OutboundRequest(t.target().url(), headers, event, t.target().timeoutSeconds() * 1000L,
        ANSWER_BYTES + ANSWER_BYTES_PER_RECORD * ids.size())).map(result -> {
          invoking--;
          InvokeOutcome outcome = TargetAnswers.outcome(t, result, ids);
          recorder.invoked(outcome.error() != null ? "failure" : outcome.response().allSucceeded() ? "success"
              : "partial", ids.size(), System.nanoTime() - startNanos,
              Math.max(0, System.currentTimeMillis() - oldestSentMillis) / 1000.0);
          if (outcome.error() == null) {
            successes++;
            lastResult = "OK";
          } else {
            failed(outcome.error(), outcome.error().label(), result.status(), ids.size(),
                TargetAnswers.describe(outcome.error(), result, t));
          }
          publish();
          if (drained != null && invoking == 0) {
            drained.tryComplete();
          }
          return outcome;
        });
  }

  /** A failure of kind {@code label}: an invoke's {@code kind}, or null for a receive or memory refusal. */
  private void failed(InvokeOutcome.ErrorKind kind, String label, int httpStatus, int records, String message) {
    if (kind != null && (worstFailure == null || kind.backsOff() && !worstFailure.backsOff())) {
      worstFailure = kind;
    }
    recorder.error(label);
    lastError = new LastError(System.currentTimeMillis(), label, httpStatus, records, message);
    lastResult = "PROBLEM: " + message;
    publish();
  }

  private Future<Integer> refreshVisibility() {
    return queue.visibilitySeconds().onSuccess(seconds -> visibilitySeconds = seconds);
  }


  private void publish() {
    status = new TriggerStatus(lastResult, lastError, pollers.size(), invoking);
  }

  Vertx vertx() {
    return vertx;
  }

  QueueEngine engine() {
    return engine;
  }

  TriggerQueue queue() {
    return queue;
  }


  Trigger trigger() {
    return trigger;
  }

  EventFilter filter() {
    return filter;
  }



  int visibilitySeconds() {
    return visibilitySeconds;
  }
}
