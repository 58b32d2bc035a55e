package dev.sluice.model;

import dev.sluice.api.Limits;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A FIFO queue's deduplication history (the SQS FIFO queues guide): for five minutes after a message was
 * accepted, a send with the same key is a duplicate and answers as the original did. Entries
 * expire in the order they were made, so they are kept in insertion order and pruned from the
 * front; a timed sweep frees them even when no more sends come. Each entry is charged to the
 * memory budget. Owned by the shard event loop of its queue.
 */
final class DeduplicationWindow {
  /** The original send's answer, kept for its duplicates. */
  record Original(String messageId, long sequenceNumber, long expiresAtMillis, int heldBytes) {}

  private static final int ENTRY_OVERHEAD_BYTES = 160;

  private final LinkedHashMap<String, Original> entries = new LinkedHashMap<>();
  private final DueTimeIndex index;
  private final MemoryBudget budget;
  private final Sweep sweep = new Sweep();

  DeduplicationWindow(DueTimeIndex index, MemoryBudget budget) {
    this.index = index;
    this.budget = budget;
  }

  /** The original of a duplicate send, or null when the key is new within the window. */
  Original find(String key, long nowMillis) {
    prune(nowMillis);
    return entries.get(key);
  }

  /** The bytes an entry for this key holds, to be charged before {@link #remember}. */
  static int bytesFor(String key) {
    return ENTRY_OVERHEAD_BYTES + 2 * key.length();
  }

  /** Records a send; answers when its entry expires. */
  long remember(String key, Message m, int heldBytes, long nowMillis) {
    long expiresAt = nowMillis + Limits.DEDUPLICATION_WINDOW_MILLIS;
    restore(key, m.messageId(), m.sequenceNumber, expiresAt, heldBytes);
    return expiresAt;
  }

  /** Puts back an entry (start-up, in expiry order) or records a new one. */
  void restore(String key, String messageId, long sequenceNumber, long expiresAtMillis, int heldBytes) {
    entries.put(key, new Original(messageId, sequenceNumber, expiresAtMillis, heldBytes));
    if (!sweep.isScheduled()) {
      index.schedule(sweep, expiresAtMillis);
    }
  }

  /** Forgets the entry of a send that was never acknowledged (its write failed for good). */
  void forgetMessage(String messageId) {
    Iterator<Original> it = entries.values().iterator();
    while (it.hasNext()) {
      Original o = it.next();
      if (o.messageId().equals(messageId)) {
        budget.release(o.heldBytes());
        it.remove();
      }
    }
  }

  /** Forgets everything (PurgeQueue clears the history). */
  void clear() {
    entries.values().forEach(o -> budget.release(o.heldBytes()));
    entries.clear();
    index.cancel(sweep);
  }

  private void prune(long nowMillis) {
    Iterator<Original> it = entries.values().iterator();
    while (it.hasNext()) {
      Original o = it.next();
      if (o.expiresAtMillis() > nowMillis) {
        return;
      }
      budget.release(o.heldBytes());
      it.remove();
    }
  }

  private final class Sweep extends Timed {
    @Override
    public void onDue(long nowMillis) {
      prune(nowMillis);
      Iterator<Map.Entry<String, Original>> it = entries.entrySet().iterator();
      if (it.hasNext()) {
        index.schedule(this, it.next().getValue().expiresAtMillis());
      }
    }
  }
}
