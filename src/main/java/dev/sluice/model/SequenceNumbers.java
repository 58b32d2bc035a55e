package dev.sluice.model;

/**
 * FIFO sequence numbers (the SQS queue and message identifiers guide): decimal strings, strictly increasing per
 * queue, about
 * 20 digits like AWS's. Kept as a long counter and rendered as "1" followed by the counter padded
 * to 19 digits, so that they also sort as strings. A queue's counter starts from its creation time
 * in nanosecond-like units, so numbers keep increasing across a re-created queue of the same name.
 */
public final class SequenceNumbers {
  private static final int DIGITS = 19;

  private SequenceNumbers() {}

  /** The first counter value of a queue created at {@code createdAtMillis}. */
  static long firstFor(long createdAtMillis) {
    return createdAtMillis * 1_000_000L;
  }

  /** The rendered number, or null for 0 (no sequence number: standard queues). */
  public static String format(long counter) {
    if (counter == 0) {
      return null;
    }
    char[] digits = new char[DIGITS + 1];
    digits[0] = '1';
    long rest = counter;
    for (int i = DIGITS; i >= 1; i--) {
      digits[i] = (char) ('0' + rest % 10);
      rest /= 10;
    }
    return new String(digits);
  }
}
