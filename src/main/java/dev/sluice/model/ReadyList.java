package dev.sluice.model;

/**
 * An intrusive doubly linked list of messages through {@link Message#prev}/{@link Message#next}:
 * O(1) add at either end, removal from anywhere, and poll from the head, without allocation.
 * A message sits in at most one such list. Owned by the shard event loop of its queue.
 */
final class ReadyList {
  private Message head;
  private Message tail;
  private int size;

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  Message first() {
    return head;
  }

  void addLast(Message m) {
    m.prev = tail;
    m.next = null;
    if (tail == null) {
      head = m;
    } else {
      tail.next = m;
    }
    tail = m;
    size++;
  }

  void addFirst(Message m) {
    m.next = head;
    m.prev = null;
    if (head == null) {
      tail = m;
    } else {
      head.prev = m;
    }
    head = m;
    size++;
  }

  void remove(Message m) {
    if (m.prev == null) {
      head = m.next;
    } else {
      m.prev.next = m.next;
    }
    if (m.next == null) {
      tail = m.prev;
    } else {
      m.next.prev = m.prev;
    }
    m.prev = null;
    m.next = null;
    size--;
  }

  Message pollFirst() {
    Message m = head;
    if (m != null) {
      remove(m);
    }
    return m;
  }

  void clear() {
    Message m = head;
    while (m != null) {
      Message n = m.next;
      m.prev = null;
      m.next = null;
      m = n;
    }
    head = null;
    tail = null;
    size = 0;
  }
}
