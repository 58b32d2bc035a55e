package dev.sluice.client;

import java.time.Duration;

/** Durations as the protocol takes them: whole seconds, rounded up, within SQS's limits. */
final class Seconds {
  /** SQS's longest visibility timeout, and so the longest nack delay or extension: 12 hours. */
  static final int MAX = 43_200;

  private Seconds() {}

  /** {@code d} in whole seconds rounded up; IllegalArgumentException outside {@code min..MAX}. */
  static int of(Duration d, int min, String what) {
    if (d == null) {
      throw new IllegalArgumentException(what + " is required");
    }
    long seconds = d.isNegative() ? -1 : d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    if (seconds < min || seconds > MAX) {
      throw new IllegalArgumentException(what + " must be from " + min + " to " + MAX + " s: " + d);
    }
    return (int) seconds;
  }
}
