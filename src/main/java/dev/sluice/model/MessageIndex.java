package dev.sluice.model;

import java.util.function.Consumer;

/**
 * A queue's messages by key: an open-addressing hash table of primitive longs (linear probing,
 * backward-shift deletion), so a million held messages cost no boxed Long and no map node each.
 * Owned by the shard event loop of its queue; not thread-safe.
 */
final class MessageIndex {
  private static final int MIN_CAPACITY = 16;
  private long[] keys = new long[MIN_CAPACITY];
  private Message[] values = new Message[MIN_CAPACITY];
  private int size;

  int size() {
    return size;
  }

  Message get(long key) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      Message v = values[i];
      if (v == null) {
        return null;
      }
      if (keys[i] == key) {
        return v;
      }
    }
  }

  void put(long key, Message value) {
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

  void forEach(Consumer<Message> action) {
    for (Message m : values) {
      if (m != null) {
        action.accept(m);
      }
    }
  }

  void clear() {
    keys = new long[MIN_CAPACITY];
    values = new Message[MIN_CAPACITY];
    size = 0;
  }

  private void resize(int capacity) {
    long[] oldKeys = keys;
    Message[] oldValues = values;
    keys = new long[capacity];
    values = new Message[capacity];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != null) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
