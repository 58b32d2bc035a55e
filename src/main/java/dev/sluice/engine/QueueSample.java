package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.QueueArns;
import dev.sluice.model.QueueCounters;
import dev.sluice.model.QueueState;
import dev.sluice.model.RedrivePolicy;

/**
 * One queue's counts at one moment, read on its shard for the metrics and the console: what
 * GetQueueAttributes would say, the age of its oldest message in milliseconds (0 when it holds
 * none), and its arrived, received and deleted totals ({@link QueueCounters}). The generation tells
 * a queue made again under the same name from the one before it (whose totals it does not continue);
 * {@code deadLetterTargetArn} is its redrive policy's target, or null. {@code backoff} counts the
 * messages waiting out their redelivery backoff, which {@code delayed} includes.
 */
public record QueueSample(QueueKey queue, long generation, String deadLetterTargetArn, int visible, int inflight,
    int delayed, long oldestAgeMillis, long arrived, long received, long deleted, int backoff) {

  /** A queue with no message in backoff. */
  public QueueSample(QueueKey queue, long generation, String deadLetterTargetArn, int visible, int inflight,
      int delayed, long oldestAgeMillis, long arrived, long received, long deleted) {
    this(queue, generation, deadLetterTargetArn, visible, inflight, delayed, oldestAgeMillis, arrived, received,
        deleted, 0);
  }

  /** The queue's ARN, as redrive policies name it. */
  public String arn() {
    return QueueArns.arnOf(queue);
  }

  /** Reads {@code q} now; on its shard's event loop only. */
  static QueueSample of(QueueState q, long nowMillis) {
    long sentAt = q.oldestSentAtMillis();
    RedrivePolicy redrive = q.attributes().redrivePolicy();
    QueueCounters totals = q.counters();
    return new QueueSample(q.metadata().key(), q.metadata().generation(),
        redrive == null ? null : redrive.deadLetterTargetArn(), q.approximateNumberOfMessages(nowMillis),
        q.approximateNumberOfMessagesNotVisible(), q.approximateNumberOfMessagesDelayed(nowMillis),
        sentAt < 0 ? 0 : Math.max(0, nowMillis - sentAt), totals.arrived(), totals.received(), totals.deleted(),
        q.messagesInBackoff());
  }
}
