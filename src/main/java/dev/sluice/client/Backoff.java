package dev.sluice.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How the client retries: reconnecting after a lost connection, and subscribing again after a
 * retryable refusal. The wait before attempt {@code k} is drawn uniformly from
 * {@code [0, min(max, initial × 2^(k−1))]} ("full jitter"), so that many clients restarted together
 * do not come back together. The exponent starts again once a connection has stayed up for
 * {@link #resetAfter()}. Unbounded unless {@link #maxAttempts(int)} says otherwise. Immutable.
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private final int maxAttempts;
  private final Duration resetAfter;

  private Backoff(Duration initial, Duration max, int maxAttempts, Duration resetAfter) {
    this.initial = initial;
    this.max = max;
    this.maxAttempts = maxAttempts;
    this.resetAfter = resetAfter;
  }

  /** 100 ms doubling up to 30 s, full jitter, reset after 60 s connected, unbounded. */
  public static Backoff defaults() {
    return exponential(Duration.ofMillis(100), Duration.ofSeconds(30));
  }

  /** From {@code initial} doubling up to {@code max}, full jitter, unbounded. */
  public static Backoff exponential(Duration initial, Duration max) {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("Need 0 < initial <= max: " + initial + ", " + max);
    }
    return new Backoff(initial, max, Integer.MAX_VALUE, Duration.ofSeconds(60));
  }

  /**
   * Gives up after {@code attempts} failed attempts in a row. For connecting, the client then stops:
   * every subscription fails with the last cause, and so do later ones. For subscribing, that
   * subscription fails.
   */
  public Backoff maxAttempts(int attempts) {
    if (attempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + attempts);
    }
    return new Backoff(initial, max, attempts, resetAfter);
  }

  /** How long a connection must stay up before the waits start from {@code initial} again. */
  public Backoff resetAfter(Duration connected) {
    return new Backoff(initial, max, maxAttempts, connected);
  }

  public Duration resetAfter() {
    return resetAfter;
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  /** Whether {@code failed} failed attempts in a row exhaust this backoff. */
  boolean exhausted(int failed) {
    return failed >= maxAttempts;
  }

  /** The wait before attempt {@code attempt} (1 for the first retry), at least 1 ms. */
  long delayMillis(int attempt) {
    long cap = max.toMillis();
    int shift = Math.max(0, attempt - 1);
    if (shift < 30) {
      cap = Math.min(cap, initial.toMillis() << shift);
    }
    return 1 + ThreadLocalRandom.current().nextLong(Math.max(1, cap));
  }
}
