package dev.sluice.triggers;

/**
 * How many pollers a trigger wants, decided once a tick (a second) from what its pollers saw in it,
 * as Lambda scales an SQS event source mapping (AWS Lambda Developer Guide: "Scaling and
 * processing", "Backoff behavior for failed invocations"): it starts with five batches at a time
 * (fewer when its maximum is lower), grows by up to five a tick while every receive comes back full,
 * lets idle pollers end down to two, halves on failures that say the target is overloaded (a 429, a
 * 5xx, a timeout, a failed connection) and waits before the next invoke (1 s, doubling per failing
 * tick up to 60 s, reset by a success), and shrinks by a quarter a tick on the function's own errors
 * unless the trigger reports batch item failures (then, as at AWS, function errors do not scale
 * polling down). Not thread-safe: its trigger's loop owns it.
 */
public final class PollerScaling {
  static final int START = 5;
  static final int FLOOR = 2;
  static final int GROWTH_PER_TICK = 5;
  static final long FIRST_BACKOFF_MILLIS = 1_000;
  static final long MAX_BACKOFF_MILLIS = 60_000;

  private final int maximum;
  private final boolean reportBatchItemFailures;
  private int target;
  private long backoffMillis;

  /** What a trigger's pollers saw during one tick. */
  public record Tick(int receives, int fullReceives, int idleReceives, int successes,
      InvokeOutcome.ErrorKind worstFailure) {}

  /** {@code maximum}: the trigger's effective maximum concurrency (at least 1). */
  public PollerScaling(int maximum, boolean reportBatchItemFailures) {
    this.maximum = Math.max(1, maximum);
    this.reportBatchItemFailures = reportBatchItemFailures;
    this.target = Math.min(START, this.maximum);
  }

  /** Applies a tick. */
  public void tick(Tick t) {
    if (t.worstFailure() != null && t.worstFailure().backsOff()) {
      target = Math.max(1, target / 2);
      backoffMillis = backoffMillis == 0 ? FIRST_BACKOFF_MILLIS : Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
      return;
    }
    if (t.worstFailure() != null && !(reportBatchItemFailures
        && t.worstFailure() == InvokeOutcome.ErrorKind.FUNCTION_ERROR)) {
      target = Math.max(1, target - Math.max(1, target / 4));
      return;
    }
    if (t.successes() > 0 || t.worstFailure() == null) {
      backoffMillis = 0;
    }
    if (t.receives() > 0 && t.fullReceives() == t.receives() && t.idleReceives() == 0) {
      target = Math.min(maximum, target + GROWTH_PER_TICK);
    }
  }

  /** How many pollers the trigger wants now. */
  public int target() {
    return target;
  }

  /** How long every poller waits before its next invoke: 0 unless the target is failing. */
  public long backoffMillis() {
    return backoffMillis;
  }

  /** Whether a poller whose long poll came back empty may end, {@code running} pollers being up. */
  public boolean idleMayEnd(int running) {
    if (running > Math.min(FLOOR, maximum)) {
      target = Math.max(Math.min(FLOOR, maximum), Math.min(target, running - 1));
      return true;
    }
    return false;
  }
}
