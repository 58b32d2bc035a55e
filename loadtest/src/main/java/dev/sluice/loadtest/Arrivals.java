package dev.sluice.loadtest;

/**
 * What reached the no-op target for one phase of the trigger benchmark: invokes, records, distinct
 * messages (a record seen again is a redelivery, counted apart), the time of the first invoke and of
 * the last new record; and, when the phase sends timed bodies, two latencies per message whose
 * intended send time falls in the measuring window: from that intended time (carried in the body as
 * nanoseconds since {@code originNanos}), so that a send that went out late still counts from when it
 * was due, and from the server's SentTimestamp (milliseconds, the design page's figure). Written by
 * the target's event loop, read by the benchmark's thread: synchronized, never contended for long.
 */
final class Arrivals {
  private final long originNanos;
  private final long windowFromNanos;
  private final long windowToNanos;
  private final SeenIds seen = new SeenIds();
  private final Histogram fromIntended = new Histogram();
  private final Histogram fromSentTimestamp = new Histogram();
  private long invokes;
  private long records;
  private long distinct;
  private long duplicates;
  private long largestBatch;
  private long inWindow;
  private long firstInvokeNanos;
  private long lastNewRecordNanos;

  /** For a phase whose bodies are not timed. */
  Arrivals() {
    this(0, Long.MAX_VALUE, Long.MIN_VALUE);
  }

  /** For a phase whose bodies start with their intended send time; latencies for those due in [from, to). */
  Arrivals(long originNanos, long windowFromNanos, long windowToNanos) {
    this.originNanos = originNanos;
    this.windowFromNanos = windowFromNanos;
    this.windowToNanos = windowToNanos;
  }

  /** An invoke whose body was fully read at {@code nanos} (and {@code epochMillis}). */
  synchronized void invoked(String event, long nanos, long epochMillis) {
    if (invokes++ == 0) {
      firstInvokeNanos = nanos;
    }
    int n = EventScan.records(event, r -> {
      if (!seen.add(r.messageId())) {
        duplicates++;
        return;
      }
      distinct++;
      lastNewRecordNanos = nanos;
      if (r.leadingNumber() < 0) {
        return;
      }
      long intended = originNanos + r.leadingNumber();
      if (intended >= windowFromNanos && intended < windowToNanos) {
        inWindow++;
        fromIntended.record((nanos - intended) / 1000);
        if (r.sentTimestamp() > 0) {
          fromSentTimestamp.record((epochMillis - r.sentTimestamp()) * 1000);
        }
      }
    });
    records += n;
    largestBatch = Math.max(largestBatch, n);
  }

  /** Distinct messages so far; cheap, for waiting on a phase. */
  synchronized long distinct() {
    return distinct;
  }

  /** Distinct timed messages due in the window so far. */
  synchronized long inWindow() {
    return inWindow;
  }

  /** The figures so far, consistent with one another. */
  synchronized Snapshot snapshot() {
    Histogram intended = new Histogram();
    intended.merge(fromIntended);
    Histogram sent = new Histogram();
    sent.merge(fromSentTimestamp);
    return new Snapshot(invokes, records, distinct, duplicates, largestBatch, inWindow, firstInvokeNanos,
        lastNewRecordNanos, intended, sent);
  }

  record Snapshot(long invokes, long records, long distinct, long duplicates, long largestBatch, long inWindow,
      long firstInvokeNanos, long lastNewRecordNanos, Histogram fromIntended, Histogram fromSentTimestamp) {
    double recordsPerInvoke() {
      return invokes == 0 ? 0 : (double) records / invokes;
    }
  }
}
