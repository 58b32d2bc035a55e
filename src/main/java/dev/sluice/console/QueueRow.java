package dev.sluice.console;

import dev.sluice.api.QueueKey;
import dev.sluice.engine.QueueSample;

/**
 * The latest reading of one queue (design/console.md §2.4): its gauges and totals, the last tick's
 * deltas and how long that tick was, and its series when one is kept. A new generation of the same
 * name is a new row. Owned by {@link ConsoleHistory}, on its worker thread.
 */
final class QueueRow {
  /** What a row holds, as {@link ConsoleHistory#retainedBytes} counts it (fields, key, strings, map entry). */
  static final int BYTES = 120;
  /** Columns of a queue's series: visible, in flight, delayed (gauges), arrived, received, deleted (counts). */
  static final int COLUMNS = 6;
  static final int GAUGES = 3;

  final QueueKey key;
  final String arn;
  final long generation;
  final boolean fifo;
  String deadLetterTargetArn;
  int visible;
  int inflight;
  int delayed;
  long oldestAgeMillis;
  long arrived;
  long received;
  long deleted;
  int arrivedDelta;
  int receivedDelta;
  int deletedDelta;
  /** Time since this row's previous sample; 0 at its first. */
  long intervalMillis;
  long sampledAtMillis;
  long seenTick;
  Series series;

  QueueRow(QueueSample s, long nowMillis) {
    this.key = s.queue();
    this.arn = s.arn();
    this.generation = s.generation();
    this.fifo = key.name().endsWith(".fifo");
    this.arrived = s.arrived();
    this.received = s.received();
    this.deleted = s.deleted();
    this.sampledAtMillis = nowMillis;
    take(s);
  }

  /** Takes a later sample of the same generation: deltas from the totals, a total gone down being a reset. */
  void update(QueueSample s, long nowMillis) {
    arrivedDelta = ConsoleHistory.delta(s.arrived(), arrived);
    receivedDelta = ConsoleHistory.delta(s.received(), received);
    deletedDelta = ConsoleHistory.delta(s.deleted(), deleted);
    arrived = s.arrived();
    received = s.received();
    deleted = s.deleted();
    intervalMillis = Math.max(0, nowMillis - sampledAtMillis);
    sampledAtMillis = nowMillis;
    take(s);
  }

  private void take(QueueSample s) {
    deadLetterTargetArn = s.deadLetterTargetArn();
    visible = s.visible();
    inflight = s.inflight();
    delayed = s.delayed();
    oldestAgeMillis = s.oldestAgeMillis();
  }

  int[] values() {
    return new int[] {visible, inflight, delayed, arrivedDelta, receivedDelta, deletedDelta};
  }

  boolean active() {
    return (visible | inflight | delayed | arrivedDelta | receivedDelta | deletedDelta) != 0;
  }

  double perSecond(int delta) {
    return ConsoleHistory.perSecond(delta, intervalMillis);
  }

  /** The key the pages use for it: {@code account/region/name}. */
  String path() {
    return key.accountId() + "/" + key.region() + "/" + key.name();
  }
}
