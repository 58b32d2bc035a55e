package dev.sluice.console;

import dev.sluice.api.topics.TopicKey;
import dev.sluice.engine.TopicSample;

/**
 * The latest reading of one topic: its totals since it was loaded, the last tick's deltas and how
 * long that tick was, and its series when one is kept. Owned by {@link ConsoleHistory}, on its
 * worker thread.
 */
final class TopicRow {
  static final int BYTES = QueueRow.BYTES;
  /** Columns of a topic's series, all counts: published, delivered, filtered out, failed. */
  static final int COLUMNS = 4;

  final TopicKey key;
  long published;
  long delivered;
  long filteredOut;
  long failed;
  int publishedDelta;
  int deliveredDelta;
  int filteredOutDelta;
  int failedDelta;
  long intervalMillis;
  long sampledAtMillis;
  long seenTick;
  Series series;

  TopicRow(TopicSample s, long nowMillis) {
    this.key = s.topic();
    this.published = s.published();
    this.delivered = s.delivered();
    this.filteredOut = s.filteredOut();
    this.failed = s.failed();
    this.sampledAtMillis = nowMillis;
  }

  void update(TopicSample s, long nowMillis) {
    publishedDelta = ConsoleHistory.delta(s.published(), published);
    deliveredDelta = ConsoleHistory.delta(s.delivered(), delivered);
    filteredOutDelta = ConsoleHistory.delta(s.filteredOut(), filteredOut);
    failedDelta = ConsoleHistory.delta(s.failed(), failed);
    published = s.published();
    delivered = s.delivered();
    filteredOut = s.filteredOut();
    failed = s.failed();
    intervalMillis = Math.max(0, nowMillis - sampledAtMillis);
    sampledAtMillis = nowMillis;
  }

  int[] values() {
    return new int[] {publishedDelta, deliveredDelta, filteredOutDelta, failedDelta};
  }

  boolean active() {
    return (publishedDelta | deliveredDelta | filteredOutDelta | failedDelta) != 0;
  }

  double perSecond(int delta) {
    return ConsoleHistory.perSecond(delta, intervalMillis);
  }
}
