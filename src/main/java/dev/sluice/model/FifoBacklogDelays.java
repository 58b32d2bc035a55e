package dev.sluice.model;

import java.util.Map;

/**
 * Owned by a FIFO queue's {@link Backlog}: the queue's delay as it applies to messages that are not
 * in memory. A FIFO queue's delivery order is its sequence numbers (§2.12), which a delay does not
 * change (a delayed message holds its group's place), so what the delay holds back is told by sent
 * time under the queue's {@link FifoDelayRule}: when a row read back or restored becomes visible, the
 * delay of a send, and, paged, how many durable-only rows are delayed now.
 */
final class FifoBacklogDelays {
  private final MessageStore store;
  private final FifoDelayRule rule = new FifoDelayRule();
  /** Paged: durable-only rows a delay may hold back, by sent time; else null. */
  private final SentTimeCounts sentTimes;

  FifoBacklogDelays(MessageStore store, HeadWindow window) {
    this.store = store;
    this.sentTimes = window.paged() ? new SentTimeCounts(window.bucketMillis()) : null;
  }

  /** A row became durable-only: counted by sent time if it was sent with the queue's delay. */
  void counted(Arrival arrival, long sentAtMillis, long nowMillis) {
    if (arrival == Arrival.SENT) {
      sentTimes.add(sentAtMillis, nowMillis);
    }
  }

  /** A durable-only row left: read back, its write failed, or it expired. */
  void uncounted(Arrival arrival, long sentAtMillis) {
    if (arrival == Arrival.SENT) {
      sentTimes.remove(sentAtMillis);
    }
  }

  /** Start-up: the rows sent with the queue's delay within the longest delay, by sent-time bucket. */
  void recovered(Map<Long, Integer> bySentBucket) {
    sentTimes.recovered(bySentBucket);
  }

  /** A purge: no row is durable-only any more. */
  void purged() {
    sentTimes.clear();
  }

  /**
   * A FIFO queue's durable-only rows are all readable (a delayed one holds its group's place once
   * read); those its delay still holds back are the ones sent after the rule's bound, at most
   * {@code due}.
   */
  long delayedRows(long due, long nowMillis) {
    long delayMillis = store.attributes().delaySeconds() * 1000L;
    return Math.min(due, sentTimes.sentAfter(rule.visibleThrough(delayMillis, nowMillis), nowMillis));
  }

  /**
   * When a row read back, or restored at start-up, becomes visible: a never-received message as the
   * queue's delay rule says (retroactive changes of DelaySeconds), else as its row says.
   */
  long visibleAt(RestoredMessage r) {
    if (r.receiveCount() == 0 && r.arrival() == Arrival.SENT) {
      return rule.visibleAt(r.sentAtMillis(), store.attributes().delaySeconds() * 1000L);
    }
    return r.visibleAtMillis();
  }

  /**
   * The delay of a message sent now: the queue's, unless its delay changed from 0 within this
   * millisecond. The rule cannot tell a message sent in it before the change from one sent after,
   * and counts both as visible: so a message sent after the change, in the same millisecond, is.
   */
  int sendDelaySeconds(long nowMillis) {
    int delaySeconds = store.attributes().delaySeconds();
    return rule.visibleAt(nowMillis, delaySeconds * 1000L) <= nowMillis ? 0 : delaySeconds;
  }

  /** The queue's DelaySeconds changed at {@code nowMillis} from {@code oldDelayMillis}. */
  void changed(long oldDelayMillis, long nowMillis) {
    rule.changed(oldDelayMillis, nowMillis);
  }

  /** The delay rule, as the queue's row keeps it. */
  FifoDelayRule rule() {
    return rule;
  }
}
