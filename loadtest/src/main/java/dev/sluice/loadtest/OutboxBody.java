package dev.sluice.loadtest;

/**
 * The body of an outbox row of the latency phase: its intended commit time (nanoseconds since the
 * run's origin), a space, its sequence number in the run, a space, then padding up to the body
 * size. The consumer reads both numbers without parsing anything else: the sequence number says
 * which row arrived (each is expected exactly once), and the time is checked against the schedule,
 * so that a message not of this run is told apart instead of being counted.
 */
final class OutboxBody {
  /** What a received body says; {@code row} is -1 when the body is not one of ours. */
  record Parsed(long intendedNanos, long row) {
    static final Parsed FOREIGN = new Parsed(-1, -1);
  }

  private OutboxBody() {}

  static String of(long intendedNanos, long row, int bodyBytes) {
    String head = intendedNanos + " " + row + " ";
    return bodyBytes <= head.length() ? head : head + "x".repeat(bodyBytes - head.length());
  }

  static Parsed parse(String body) {
    int space = body.indexOf(' ');
    int second = space < 0 ? -1 : body.indexOf(' ', space + 1);
    if (second < 0) {
      return Parsed.FOREIGN;
    }
    long intended = digits(body, 0, space);
    long row = digits(body, space + 1, second);
    return intended < 0 || row < 0 ? Parsed.FOREIGN : new Parsed(intended, row);
  }

  /** The non-negative decimal number in {@code s[from, to)}, or -1 when it is none (or too long). */
  private static long digits(String s, int from, int to) {
    if (to <= from || to - from > 18) {
      return -1;
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
