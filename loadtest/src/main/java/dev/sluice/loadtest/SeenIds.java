package dev.sluice.loadtest;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * The MessageIds seen so far, to count duplicate deliveries. Sluice's ids are UUIDs: they are kept
 * as two longs in an open-addressing table (10 million take 256 MB, a HashSet of strings would take
 * over 1.5 GB); any other form goes to a plain set.
 */
final class SeenIds {
  private long[] high = new long[1 << 16];
  private long[] low = new long[1 << 16];
  private int size;
  private final Set<String> others = new HashSet<>();

  /** Records {@code id}; whether it was new. */
  synchronized boolean add(String id) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException notUuid) {
      return others.add(id);
    }
    long h = uuid.getMostSignificantBits();
    long l = uuid.getLeastSignificantBits();
    if (h == 0 && l == 0) {
      return others.add(id); // the empty slot's marker
    }
    if (4L * (size + 1) > 3L * high.length) {
      grow();
    }
    return insert(h, l);
  }

  private boolean insert(long h, long l) {
    int mask = high.length - 1;
    for (int i = slot(h, l) & mask; ; i = (i + 1) & mask) {
      if (high[i] == 0 && low[i] == 0) {
        high[i] = h;
        low[i] = l;
        size++;
        return true;
      }
      if (high[i] == h && low[i] == l) {
        return false;
      }
    }
  }

  private void grow() {
    long[] oldHigh = high;
    long[] oldLow = low;
    high = new long[oldHigh.length * 2];
    low = new long[oldLow.length * 2];
    size = 0;
    for (int i = 0; i < oldHigh.length; i++) {
      if (oldHigh[i] != 0 || oldLow[i] != 0) {
        insert(oldHigh[i], oldLow[i]);
      }
    }
  }

  private static int slot(long h, long l) {
    long x = (h ^ Long.rotateLeft(l, 29)) * 0x9E3779B97F4A7C15L;
    return (int) (x ^ (x >>> 32));
  }
}
