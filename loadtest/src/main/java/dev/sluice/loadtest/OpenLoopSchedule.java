package dev.sluice.loadtest;

/**
 * When each request of one worker's share of an open loop is due. A run at {@code rate} requests/s
 * over {@code workers} event loops gives each worker {@code rate / workers} a second, offset by
 * {@code worker / rate}, so the merged schedule is evenly spaced rather than bunched at each tick.
 * Request k is due at {@code start + offset + k / share} and is started on the first timer tick at
 * or after then; a late tick shows as lag, never as a request left out.
 */
record OpenLoopSchedule(long startNanos, double share) {
  static OpenLoopSchedule of(long startNanos, double rate, int worker, int workers) {
    return new OpenLoopSchedule(startNanos + (long) (1e9 / rate * worker), rate / workers);
  }

  long dueAt(long k) {
    return startNanos + (long) (k * 1e9 / share);
  }

  /**
   * How many requests are due by {@code now} among those due before {@code endNanos}: the k with
   * {@code dueAt(k) ≤ now}, counted by walking from {@code started} so rounding never disagrees
   * with {@link #dueAt}.
   */
  long dueBy(long now, long endNanos, long started) {
    long k = started;
    for (long at = dueAt(k); at <= now && at < endNanos; at = dueAt(++k)) {
      // counting
    }
    return k;
  }
}
