package dev.sluice.model;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Owned by its queue (made by its {@link QueueState}, drawn from by its {@link Visibility}), on the
 * shard event loop that owns the queue: the random source of the queue's redelivery backoff, and
 * the rule for how long a message whose visibility ran out waits before it is visible again (its
 * {@link RedeliveryBackoff}, a due time after the visibility expiry, not a timer of its own).
 */
final class RedeliveryWaits {
  private final QueueMetadata metadata;
  private final DeadLetterRoute deadLetters;
  private RandomGenerator random = new SplittableRandom();

  RedeliveryWaits(QueueMetadata metadata, DeadLetterRoute deadLetters) {
    this.metadata = metadata;
    this.deadLetters = deadLetters;
  }

  /** Tests: draws from {@code seeded} from now on, so that the waits can be predicted. */
  void drawFrom(RandomGenerator seeded) {
    this.random = seeded;
  }

  /**
   * How long {@code m}, whose visibility just ran out, waits before it is visible again: 0 without
   * a policy, and 0 for a message that its next receive moves to the dead-letter queue (it has been
   * received maxReceiveCount times): waiting would only delay the move, not a retry.
   */
  long waitMillis(Message m) {
    RedeliveryBackoff policy = metadata.redeliveryBackoff();
    if (policy == null || m.receiveCount() == 0) {
      return 0;
    }
    RedrivePolicy redrive = metadata.attributes().redrivePolicy();
    if (redrive != null && m.receiveCount() >= redrive.maxReceiveCount()
        && deadLetters.exists(redrive.deadLetterTargetArn())) {
      return 0;
    }
    return policy.drawMillis(m.receiveCount(), random);
  }
}
