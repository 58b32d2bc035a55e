package dev.sluice.model;

import java.util.ArrayDeque;

/**
 * Every held message of one queue in send order, oldest first, so the retention sweep finds what
 * expires in O(1) per message. Messages that leave another way are dropped lazily; the deque is
 * compacted when such leftovers outnumber the live messages. Owned by the shard event loop of its
 * queue.
 */
final class SendOrder {
  private static final int COMPACT_AFTER = 1024;
  private final ArrayDeque<Message> messages = new ArrayDeque<>();
  private int gone;

  void add(Message m) {
    messages.addLast(m);
  }

  /** A message left the queue other than through {@link #pollOldest}; {@code live} remain. */
  void noteGone(int live) {
    gone++;
    if (gone > COMPACT_AFTER && gone > live) {
      messages.removeIf(x -> x.state == MessageState.GONE);
      gone = 0;
    }
  }

  /** The oldest message still held, or null. */
  Message oldestLive() {
    Message head;
    while ((head = messages.peekFirst()) != null && head.state == MessageState.GONE) {
      messages.pollFirst();
      gone--;
    }
    return head;
  }

  /** Removes the oldest message; call after {@link #oldestLive} returned it. */
  void pollOldest() {
    messages.pollFirst();
  }

  void clear() {
    messages.clear();
    gone = 0;
  }
}
