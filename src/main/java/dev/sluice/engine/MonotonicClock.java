package dev.sluice.engine;

import java.util.function.LongSupplier;

/**
 * Epoch milliseconds that never jump: the wall clock read once at start, advanced by the monotonic
 * nanosecond clock. Due times (delays, visibility, long-poll deadlines) must not fire early or stall
 * when NTP or an operator steps the system clock; timestamps shown to clients stay close to wall
 * time. Thread-safe (immutable).
 */
final class MonotonicClock implements LongSupplier {
  private final long startMillis = System.currentTimeMillis();
  private final long startNanos = System.nanoTime();

  @Override
  public long getAsLong() {
    return startMillis + (System.nanoTime() - startNanos) / 1_000_000;
  }
}
