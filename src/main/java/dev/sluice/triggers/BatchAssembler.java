package dev.sluice.triggers;

import java.util.ArrayList;
import java.util.List;

/**
 * Gathers a poller's received records into the batch it invokes with (AWS Lambda Developer Guide:
 * "Batching behavior" of SQS event source mappings): with no batching window the batch is one
 * receive; with one, it fills until the first of BatchSize records, the window counted from the
 * first record's arrival, or an event of 6 MB (Lambda's payload limit for a synchronous invoke: the
 * record that would pass it starts the next batch; a record larger alone goes alone). Sluice adds a
 * visibility guard: a batch goes before its first record's visibility timeout leaves less than the
 * invoke's timeout and a second, so that no batch is invoked with receipt handles about to expire;
 * but never before half that visibility is spent, so that a window still gathers on a queue whose
 * visibility timeout is no longer than the invoke's (Lambda's advice is six times as long).
 * Time is passed in. Not thread-safe: its poller's loop owns it.
 */
public final class BatchAssembler {
  /** Lambda's limit of a synchronous invoke's payload, in bytes. */
  public static final int MAX_EVENT_BYTES = 6_291_456;
  /** What {@code {"Records":[]}} takes around the records. */
  static final int EVENT_OVERHEAD_BYTES = 13;
  static final long GUARD_MARGIN_MILLIS = 1_000;

  /** One received record: its id, its JSON and size ({@link SqsEvent}), and when its visibility ends. */
  public record Record(String messageId, String json, int bytes, long visibleUntilMillis) {}

  private final int batchSize;
  private final long windowMillis;
  private final long invokeTimeoutMillis;
  private final List<Record> batch = new ArrayList<>();
  private final List<Record> next = new ArrayList<>();
  private long bytes = EVENT_OVERHEAD_BYTES;
  private long firstArrivalMillis;
  private boolean full;

  public BatchAssembler(int batchSize, int windowSeconds, long invokeTimeoutMillis) {
    this.batchSize = batchSize;
    this.windowMillis = windowSeconds * 1000L;
    this.invokeTimeoutMillis = invokeTimeoutMillis;
  }

  /** Adds the records of one receive, arrived at {@code nowMillis}. */
  public void add(List<Record> received, long nowMillis) {
    for (Record r : received) {
      if (full || !batch.isEmpty() && (batch.size() >= batchSize || bytes + r.bytes() > MAX_EVENT_BYTES)) {
        full = true;
        next.add(r); // starts the next batch
        continue;
      }
      if (batch.isEmpty()) {
        firstArrivalMillis = nowMillis;
      }
      batch.add(r);
      bytes += r.bytes();
    }
    if (windowMillis == 0 && !batch.isEmpty()) {
      full = true;
    }
  }

  /** Whether the batch should be invoked now. */
  public boolean ready(long nowMillis) {
    if (batch.isEmpty()) {
      return false;
    }
    return full || batch.size() >= batchSize || nowMillis - firstArrivalMillis >= windowMillis
        || batch.get(0).visibleUntilMillis() - nowMillis <= guardLeadMillis();
  }

  /** How long before its first record's visibility ends a batch goes at the latest. */
  private long guardLeadMillis() {
    long visibility = batch.get(0).visibleUntilMillis() - firstArrivalMillis;
    return Math.min(invokeTimeoutMillis + GUARD_MARGIN_MILLIS, visibility / 2);
  }

  /** How many records the next receive should ask for (at most ten, as a receive takes). */
  public int wanted() {
    return full ? 0 : Math.max(0, Math.min(10, batchSize - batch.size()));
  }

  /** How long the next receive may wait, in milliseconds: the window left (the guard's time counted). */
  public long waitMillis(long nowMillis) {
    if (batch.isEmpty()) {
      return windowMillis;
    }
    long windowLeft = firstArrivalMillis + windowMillis - nowMillis;
    long guardLeft = batch.get(0).visibleUntilMillis() - guardLeadMillis() - nowMillis;
    return Math.max(0, Math.min(windowLeft, guardLeft));
  }

  /** Takes the batch to invoke; what was held over starts the next one. */
  public List<Record> take(long nowMillis) {
    List<Record> out = List.copyOf(batch);
    batch.clear();
    bytes = EVENT_OVERHEAD_BYTES;
    full = false;
    List<Record> carried = List.copyOf(next);
    next.clear();
    add(carried, nowMillis);
    return out;
  }

  /** The records held, in the batch and held over: what a stop gives back. */
  public List<Record> held() {
    List<Record> all = new ArrayList<>(batch);
    all.addAll(next);
    return all;
  }
}
