package dev.sluice.model;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The positions of a queue's durable-only rows whose write has not committed yet. A page read
 * stops short of the smallest of them: writes commit out of order across the writer's lanes, and
 * a read that saw a later row but not an earlier one would move the frontier over a row no read
 * would ever find. A min-heap with lazy deletion: a committed row is forgotten by key, and leaves
 * the heap when it reaches the top, or when the heap is rebuilt from the live entries once it holds
 * more than twice as many: a fill with no consumer never asks for the top, and the heap would
 * otherwise keep one entry for every row ever spilled (a 10-million-message fill held 400 MB).
 */
final class UncommittedSpills {
  /** Entries that are no longer live are tolerated up to this many before a rebuild. */
  private static final int SLACK = 64;

  private PriorityQueue<DeliveryPosition> heap = new PriorityQueue<>();
  /** Live entries by key, with their position. */
  private final Map<Long, DeliveryPosition> live = new HashMap<>();

  void add(DeliveryPosition p) {
    if (live.put(p.minor(), p) == null) {
      heap.add(p);
    }
  }

  /** The row with this key has committed, or failed for good; false if it was not here. */
  boolean remove(long key) {
    if (live.remove(key) == null) {
      return false;
    }
    if (live.isEmpty()) {
      heap.clear();
    } else if (heap.size() > 2 * live.size() + SLACK) {
      heap = new PriorityQueue<>(live.values()); // heapified in linear time, after as many removals
    }
    return true;
  }

  /** Entries the heap holds, live or not (tests: bounded by the live ones). */
  int heapSize() {
    return heap.size();
  }

  boolean contains(long key) {
    return live.containsKey(key);
  }

  /** The smallest uncommitted position, or null when every write has committed. */
  DeliveryPosition min() {
    DeliveryPosition top;
    while ((top = heap.peek()) != null && !top.equals(live.get(top.minor()))) {
      heap.poll();
    }
    return top;
  }

  int size() {
    return live.size();
  }

  /** A purge: rows written before it no longer matter. */
  void clear() {
    heap.clear();
    live.clear();
  }
}
