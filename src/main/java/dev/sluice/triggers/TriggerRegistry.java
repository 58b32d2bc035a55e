package dev.sluice.triggers;

import dev.sluice.api.QueueKey;
import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import dev.sluice.model.QueueLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The triggers of one shard's queues, by id: at most one per queue and target URL (Lambda refuses a
 * second mapping of the same queue and function), and no more server-wide than the shared limit
 * allows. Not thread-safe: its shard's loop owns it.
 */
public final class TriggerRegistry {
  private final Map<UUID, Trigger> byId = new TreeMap<>();
  private final QueueLimit limit;

  /** {@code limit}: the server-wide count of triggers (this shard's share of it). */
  public TriggerRegistry(QueueLimit limit) {
    this.limit = limit;
  }

  /** Adds a new trigger; throws Lambda's ResourceConflictException for a duplicate, or the limit's refusal. */
  public void add(Trigger t) {
    checkUnique(t);
    if (!limit.tryTake()) {
      throw LambdaException.invalidValue("Sluice's limit of " + limit.maxQueues() + " triggers is reached.");
    }
    byId.put(t.id(), t);
  }

  /**
   * Puts back a trigger that exists already (recovered, or a delete undone): it takes its place
   * whatever the limit, as recovered queues do.
   */
  public void restore(Trigger t) {
    if (byId.put(t.id(), t) == null) {
      limit.take();
    }
  }

  /** Replaces a trigger by a changed one of the same id, which may not take another's queue and URL. */
  public void replace(Trigger t) {
    if (!byId.containsKey(t.id())) {
      throw notFound();
    }
    checkUnique(t);
    byId.put(t.id(), t);
  }

  /** Lambda's refusal of a second mapping of one queue and function. */
  private void checkUnique(Trigger t) {
    for (Trigger other : byId.values()) {
      if (!other.id().equals(t.id()) && other.queue().equals(t.queue())
          && other.target().url().equals(t.target().url())) {
        throw new LambdaException(LambdaErrorCode.RESOURCE_CONFLICT, "An event source mapping with SQS arn (\" "
            + t.queueArn() + " \") and function (\" " + t.target().url() + " \") already exists. Please update or"
            + " delete the existing mapping with UUID " + other.id());
      }
    }
  }

  /** The trigger of {@code id}, or null. */
  public Trigger find(UUID id) {
    return byId.get(id);
  }

  /** The trigger of {@code id}; Lambda's ResourceNotFoundException when there is none. */
  public Trigger get(UUID id) {
    Trigger t = byId.get(id);
    if (t == null) {
      throw notFound();
    }
    return t;
  }

  /** Removes the trigger of {@code id} and answers it; ResourceNotFoundException when there is none. */
  public Trigger remove(UUID id) {
    Trigger t = byId.remove(id);
    if (t == null) {
      throw notFound();
    }
    limit.release();
    return t;
  }

  /** Every trigger, by id. */
  public List<Trigger> all() {
    return new ArrayList<>(byId.values());
  }

  /** The triggers of {@code queue}. */
  public List<Trigger> of(QueueKey queue) {
    return byId.values().stream().filter(t -> t.queue().equals(queue)).toList();
  }

  /** As Lambda answers an unknown UUID. */
  public static LambdaException notFound() {
    return new LambdaException(LambdaErrorCode.RESOURCE_NOT_FOUND, "The resource you requested does not exist.");
  }
}
