package dev.sluice.model;

/**
 * Owned by a FIFO queue's {@link FifoBacklogDelays}: when a never-received message sent to the
 * queue becomes visible, given every change of the queue's DelaySeconds since, without rewriting a
 * row.
 *
 * <p>On FIFO queues the per-queue delay is retroactive (AWS: Amazon SQS delay queues): a change
 * reschedules the messages still delayed, from their sent time and not before the change, and
 * leaves those already visible visible. So a message sent at {@code s} and never received is
 * visible at {@code s} if it was visible at some change (then {@code s <= releasedThrough}, the
 * latest sent time that was visible at a change), else at {@code max(changedAt, s + delay)} with
 * the current delay. This is what rescheduling every delayed message at each change does, for rows
 * that are not in memory: read back from the durable store, or restored at start-up (the two values
 * are kept with the queue's row).
 */
final class FifoDelayRule {
  /** No change since the queue was created: every message is visible its delay after it was sent. */
  static final long NEVER = Long.MIN_VALUE;

  private long releasedThrough = NEVER;
  private long changedAt = NEVER;

  /** The delay changed at {@code nowMillis} from {@code oldDelayMillis}. */
  void changed(long oldDelayMillis, long nowMillis) {
    releasedThrough = Math.max(releasedThrough, nowMillis - oldDelayMillis);
    changedAt = nowMillis;
  }

  /** When a never-received message sent at {@code sentAtMillis} is visible under delay {@code delayMillis}. */
  long visibleAt(long sentAtMillis, long delayMillis) {
    return sentAtMillis <= releasedThrough ? sentAtMillis : Math.max(changedAt, sentAtMillis + delayMillis);
  }

  /**
   * The latest sent time at or before which a never-received message is visible at {@code nowMillis}
   * under delay {@code delayMillis}: messages sent after it are delayed.
   */
  long visibleThrough(long delayMillis, long nowMillis) {
    return Math.max(releasedThrough, nowMillis - delayMillis);
  }

  /** Start-up: the rule as the queue's row kept it. */
  void restore(long releasedThroughMillis, long changedAtMillis) {
    releasedThrough = releasedThroughMillis;
    changedAt = changedAtMillis;
  }

  long releasedThroughMillis() {
    return releasedThrough;
  }

  long changedAtMillis() {
    return changedAt;
  }
}
