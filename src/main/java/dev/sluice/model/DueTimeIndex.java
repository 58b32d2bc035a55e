package dev.sluice.model;

import java.util.Arrays;

/**
 * One per shard: orders everything that becomes due (delays, visibility expiries, retention,
 * long-poll deadlines) so that a single timer armed for {@link #nextDueAtMillis()} drives them all.
 *
 * <p>An indexed binary min-heap: each item knows its slot, so scheduling, rescheduling and
 * cancelling are O(log n) with no stale entries left behind (a visibility change on a million-message
 * queue costs the same as on an empty one). Ties break by scheduling order. Owned by one shard
 * event loop; not thread-safe.
 */
public final class DueTimeIndex {
  private Timed[] heap = new Timed[64];
  private int size;
  private long nextOrder;

  public int size() {
    return size;
  }

  /** The earliest due time, or {@link Long#MAX_VALUE} when nothing is scheduled. */
  public long nextDueAtMillis() {
    return size == 0 ? Long.MAX_VALUE : heap[0].dueAtMillis;
  }

  /** Schedules the item, or moves it if it is already scheduled. */
  public void schedule(Timed item, long dueAtMillis) {
    if (item.heapIndex >= 0) {
      cancel(item);
    }
    item.dueAtMillis = dueAtMillis;
    item.order = nextOrder++;
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    heap[size] = item;
    item.heapIndex = size;
    size++;
    siftUp(item.heapIndex);
  }

  /** Removes the item if it is scheduled; a no-op otherwise. */
  public void cancel(Timed item) {
    int i = item.heapIndex;
    if (i < 0) {
      return;
    }
    size--;
    Timed last = heap[size];
    heap[size] = null;
    item.heapIndex = -1;
    if (i != size) {
      heap[i] = last;
      last.heapIndex = i;
      siftDown(i);
      siftUp(last.heapIndex);
    }
    if (heap.length > 1024 && size < heap.length / 4) {
      heap = Arrays.copyOf(heap, heap.length / 2);
    }
  }

  /** Removes and returns the earliest item if it is due at {@code nowMillis}, else null. */
  public Timed pollDue(long nowMillis) {
    if (size == 0 || heap[0].dueAtMillis > nowMillis) {
      return null;
    }
    Timed first = heap[0];
    cancel(first);
    return first;
  }

  /**
   * Fires up to {@code max} items due at {@code nowMillis}, including ones that become due while
   * firing; returns how many fired. A caller that gets {@code max} back continues in a later turn,
   * so a mass expiry never holds the event loop for long.
   */
  public int fireDue(long nowMillis, int max) {
    int fired = 0;
    Timed item;
    while (fired < max && (item = pollDue(nowMillis)) != null) {
      item.onDue(nowMillis);
      fired++;
    }
    return fired;
  }

  private boolean less(Timed a, Timed b) {
    return a.dueAtMillis < b.dueAtMillis || (a.dueAtMillis == b.dueAtMillis && a.order < b.order);
  }

  private void siftUp(int i) {
    Timed item = heap[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      Timed p = heap[parent];
      if (!less(item, p)) {
        break;
      }
      heap[i] = p;
      p.heapIndex = i;
      i = parent;
    }
    heap[i] = item;
    item.heapIndex = i;
  }

  private void siftDown(int i) {
    Timed item = heap[i];
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < size && less(heap[right], heap[child])) {
        child = right;
      }
      if (!less(heap[child], item)) {
        break;
      }
      heap[i] = heap[child];
      heap[i].heapIndex = i;
      i = child;
    }
    heap[i] = item;
    item.heapIndex = i;
  }
}
