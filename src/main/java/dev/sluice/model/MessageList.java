package dev.sluice.model;

/**
 * An intrusive doubly linked list of messages: O(1) add at either end, removal from anywhere and
 * poll from the head, without allocation, and a removed message is unlinked at once so nothing it
 * holds outlives it. A message has two pairs of links, so it can sit in one list of each kind at a
 * time: its queue's ready list (or a FIFO group's) and its queue's send order (for retention).
 * Owned by the shard event loop of its queue.
 */
final class MessageList {
  /** Which pair of links on {@link Message} a list threads through. */
  enum Links {
    /** {@link Message#prev}/{@link Message#next}. */
    READY,
    /** {@link Message#sentPrev}/{@link Message#sentNext}. */
    SEND_ORDER
  }

  private final boolean sendOrder;
  private Message head;
  private Message tail;
  private int size;

  MessageList(Links links) {
    this.sendOrder = links == Links.SEND_ORDER;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The first message, or null. */
  Message first() {
    return head;
  }

  void addLast(Message m) {
    setLinks(m, tail, null);
    if (tail == null) {
      head = m;
    } else {
      setNext(tail, m);
    }
    tail = m;
    size++;
  }

  void addFirst(Message m) {
    setLinks(m, null, head);
    if (head == null) {
      tail = m;
    } else {
      setPrev(head, m);
    }
    head = m;
    size++;
  }

  /**
   * Inserts after the last message sent no later than {@code m}, searching from the tail (send
   * order lists only).
   */
  void insertBySentTime(Message m) {
    Message after = tail;
    while (after != null && after.sentAtMillis > m.sentAtMillis) {
      after = prev(after);
    }
    if (after == null) {
      addFirst(m);
    } else if (after == tail) {
      addLast(m);
    } else {
      Message next = next(after);
      setLinks(m, after, next);
      setNext(after, m);
      setPrev(next, m);
      size++;
    }
  }

  void remove(Message m) {
    Message prev = prev(m);
    Message next = next(m);
    if (prev == null) {
      head = next;
    } else {
      setNext(prev, next);
    }
    if (next == null) {
      tail = prev;
    } else {
      setPrev(next, prev);
    }
    setLinks(m, null, null);
    size--;
  }

  Message pollFirst() {
    Message m = head;
    if (m != null) {
      remove(m);
    }
    return m;
  }

  /** Forgets every message; they are all being dropped, so their own links no longer matter. */
  void clear() {
    head = null;
    tail = null;
    size = 0;
  }

  private Message prev(Message m) {
    return sendOrder ? m.sentPrev : m.prev;
  }

  private Message next(Message m) {
    return sendOrder ? m.sentNext : m.next;
  }

  private void setPrev(Message m, Message prev) {
    if (sendOrder) {
      m.sentPrev = prev;
    } else {
      m.prev = prev;
    }
  }

  private void setNext(Message m, Message next) {
    if (sendOrder) {
      m.sentNext = next;
    } else {
      m.next = next;
    }
  }

  private void setLinks(Message m, Message prev, Message next) {
    setPrev(m, prev);
    setNext(m, next);
  }
}
