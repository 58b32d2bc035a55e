package dev.sluice.topics;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A FIFO topic's deduplication history (SNS API reference: Publish, MessageDeduplicationId): for
 * five minutes after a publish was accepted, one with the same key is a duplicate, answered with
 * the first one's message id and sequence number and delivered nowhere. Entries expire in the
 * order they were made and are pruned from the front at each look-up, so the history holds at
 * most the publishes of the last five minutes. Owned by its topic's shard loop.
 */
public final class TopicDeduplication {
  static final long WINDOW_MILLIS = 5 * 60 * 1000;

  /** The first publish of a key: its answer, kept for its duplicates. */
  public record Original(String messageId, long sequenceNumber, long expiresAtMillis) {}

  private final LinkedHashMap<String, Original> entries = new LinkedHashMap<>();

  /** The original of a duplicate, or null when the key is new within the window. */
  public Original find(String key, long nowMillis) {
    Iterator<Map.Entry<String, Original>> it = entries.entrySet().iterator();
    while (it.hasNext() && it.next().getValue().expiresAtMillis() <= nowMillis) {
      it.remove();
    }
    return entries.get(key);
  }

  public void remember(String key, String messageId, long sequenceNumber, long nowMillis) {
    entries.put(key, new Original(messageId, sequenceNumber, nowMillis + WINDOW_MILLIS));
  }

  /**
   * Forgets the entry of a publish that was not acknowledged (a copy could not be stored), so that
   * the publisher's retry is delivered rather than answered as a duplicate.
   */
  public void forget(String key, String messageId) {
    Original o = entries.get(key);
    if (o != null && o.messageId().equals(messageId)) {
      entries.remove(key);
    }
  }

  int size() {
    return entries.size();
  }
}
