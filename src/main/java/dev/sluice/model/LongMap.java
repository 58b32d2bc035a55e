package dev.sluice.model;

import java.util.function.Consumer;

/**
 * An open-addressing hash table from primitive longs to objects (linear probing, backward-shift
 * deletion): no boxed Long and no node per entry. Owned by one shard event loop; not thread-safe.
 */
final class LongMap<V> {
  private static final int MIN_CAPACITY = 16;
  private long[] keys = new long[MIN_CAPACITY];
  private Object[] values = new Object[MIN_CAPACITY];
  private int size;

  int size() {
    return size;
  }

  @SuppressWarnings("unchecked")
  V get(long key) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      Object v = values[i];
      if (v == null) {
        return null;
      }
      if (keys[i] == key) {
        return (V) v;
      }
    }
  }

  void put(long key, V value) {
    if ((size + 1) * 4 > keys.length * 3) {
      resize(keys.length * 2);
    }
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (values[i] != null && keys[i] != key) {
      i = (i + 1) & mask;
    }
    if (values[i] == null) {
      size++;
    }
    keys[i] = key;
    values[i] = value;
  }

  void remove(long key) {
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (values[i] != null && keys[i] != key) {
      i = (i + 1) & mask;
    }
    if (values[i] == null) {
      return;
    }
    size--;
    // Shift later members of the probe run back so no lookup stops early at the hole.
    int hole = i;
    for (int j = (hole + 1) & mask; values[j] != null; j = (j + 1) & mask) {
      int home = slot(keys[j], mask);
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        keys[hole] = keys[j];
        values[hole] = values[j];
        hole = j;
      }
    }
    values[hole] = null;
    if (keys.length > MIN_CAPACITY && size * 8 < keys.length) {
      resize(keys.length / 2);
    }
  }

  @SuppressWarnings("unchecked")
  void forEachValue(Consumer<V> action) {
    for (Object v : values) {
      if (v != null) {
        action.accept((V) v);
      }
    }
  }

  void clear() {
    keys = new long[MIN_CAPACITY];
    values = new Object[MIN_CAPACITY];
    size = 0;
  }

  private void resize(int capacity) {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    keys = new long[capacity];
    values = new Object[capacity];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != null) {
        @SuppressWarnings("unchecked")
        V v = (V) oldValues[i];
        put(oldKeys[i], v);
      }
    }
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
