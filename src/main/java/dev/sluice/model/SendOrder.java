package dev.sluice.model;

/**
 * Every held message of one queue in send order, oldest first, so the retention sweep finds what
 * expires in O(1) per message: an intrusive doubly linked list through {@link Message#sentPrev} and
 * {@link Message#sentNext}, so a deleted message is unlinked at once and nothing it holds outlives
 * it. Owned by the shard event loop of its queue.
 */
final class SendOrder {
  private Message head;
  private Message tail;

  void add(Message m) {
    m.sentPrev = tail;
    m.sentNext = null;
    if (tail == null) {
      head = m;
    } else {
      tail.sentNext = m;
    }
    tail = m;
  }

  void remove(Message m) {
    if (m.sentPrev == null) {
      head = m.sentNext;
    } else {
      m.sentPrev.sentNext = m.sentNext;
    }
    if (m.sentNext == null) {
      tail = m.sentPrev;
    } else {
      m.sentNext.sentPrev = m.sentPrev;
    }
    m.sentPrev = null;
    m.sentNext = null;
  }

  /** The oldest message held, or null. */
  Message oldest() {
    return head;
  }

  void clear() {
    head = null;
    tail = null;
  }
}
