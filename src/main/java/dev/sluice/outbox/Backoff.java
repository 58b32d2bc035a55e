package dev.sluice.outbox;

import java.util.function.DoubleSupplier;

/**
 * How long a relay waits before trying again after its database failed it: 100 ms, doubling with
 * each failure in a row up to 30 s, each wait shortened by a random part of up to a half, so that
 * nodes that lost the database together do not all come back at once. Owned by its relay's event
 * loop.
 */
final class Backoff {
  static final long FIRST_MILLIS = 100;
  static final long MAX_MILLIS = 30_000;

  private final DoubleSupplier random;
  private int failures;

  /** {@code random}: uniform in [0, 1). */
  Backoff(DoubleSupplier random) {
    this.random = random;
  }

  /** A failure: the wait before the next try. */
  long next() {
    long base = Math.min(MAX_MILLIS, FIRST_MILLIS << Math.min(failures, 20));
    failures++;
    return Math.max(1, base - (long) (base * 0.5 * random.getAsDouble()));
  }

  /** A success: the next failure waits the first wait again. */
  void reset() {
    failures = 0;
  }

  /** Failures in a row so far. */
  int failures() {
    return failures;
  }
}
