package dev.sluice.triggers;

import dev.sluice.api.QueueKey;
import dev.sluice.model.QueueArns;
import java.util.List;
import java.util.UUID;

/**
 * One trigger's definition, as its queue's shard keeps it (design/triggers.md §2.3): the queue it
 * consumes, the account it consumes as, where and how it posts, how it batches and scales, its
 * filter patterns, whether it runs, and where it came from. The runtime's state (pollers, last
 * error) is not part of it. Immutable: a change makes a new one.
 *
 * @param owner the account the trigger consumes as
 * @param filterPatterns its FilterCriteria's patterns, each checked ({@code EventPattern}), empty for none
 * @param stateReason Lambda's StateTransitionReason
 * @param origin {@code api}, or {@code config:<key>} for a trigger of the configuration
 */
public record Trigger(UUID id, String owner, QueueKey queue, TriggerSettings settings, TargetSettings target,
    List<String> filterPatterns, boolean enabled, String stateReason, String origin, long lastModifiedMillis) {

  public static final String USER_INITIATED = "USER_INITIATED";

  public Trigger {
    filterPatterns = List.copyOf(filterPatterns);
  }

  /** The queue's ARN: the trigger's EventSourceArn. */
  public String queueArn() {
    return QueueArns.arnOf(queue);
  }

  /** The ARN Lambda gives an event source mapping, in its queue's region and its owner's account. */
  public String arn() {
    return "arn:aws:lambda:" + queue.region() + ":" + owner + ":event-source-mapping:" + id;
  }

  /** Whether the trigger's queue is a FIFO queue. */
  public boolean fifo() {
    return queue.name().endsWith(".fifo");
  }

  /**
   * The most batches in flight at once: the trigger's MaximumConcurrency (1,000 when it has none),
   * no more than its target takes at once.
   */
  public int effectiveConcurrency() {
    int most = settings.maximumConcurrency() == 0 ? TriggerSettings.MAX_CONCURRENCY : settings.maximumConcurrency();
    return target.maxConcurrentRequests() == 0 ? most : Math.min(most, target.maxConcurrentRequests());
  }

  /** The same trigger with {@code changed} settings, target, filters, state and origin, modified at {@code nowMillis}. */
  public Trigger with(TriggerSettings changedSettings, TargetSettings changedTarget, List<String> changedPatterns,
      boolean changedEnabled, String changedOrigin, long nowMillis) {
    return new Trigger(id, owner, queue, changedSettings, changedTarget, changedPatterns, changedEnabled,
        USER_INITIATED, changedOrigin, nowMillis);
  }
}
