package dev.sluice.console;

import java.util.Arrays;

/**
 * One queue's or topic's kept history (design/console.md §2.4): a fine ring of one slot per tick
 * and a coarse ring of one slot per minute, holding the minute's last gauge values and the sum of
 * its counts. Each ring is one column-major {@code int} array; {@link #NONE} marks a slot without a
 * sample. The first {@code gauges} columns are gauges, the rest counts. Owned by
 * {@link ConsoleHistory}, on its worker thread.
 */
final class Series {
  static final int NONE = Integer.MIN_VALUE;
  /**
   * What a series holds besides its two arrays, as {@link ConsoleHistory#retainedBytes} counts it:
   * the object's header and fields (≈ 64 B) and the linked map entry that holds it (≈ 48 B), rounded up.
   */
  static final int OVERHEAD_BYTES = 128;
  /** An int array's header, as the count of its bytes takes it (a 64-bit JVM: 16 B). */
  static final int ARRAY_HEADER_BYTES = 16;

  final Object key;
  final int columns;
  final int gauges;
  final int[] fine;
  final int[] coarse;
  final long startTick;
  final long startMinute;
  final long sinceMillis;
  long lastTick;
  long lastMinute;
  long lastActiveMillis;

  Series(Object key, int columns, int gauges, long tick, long minute, long nowMillis) {
    this.key = key;
    this.columns = columns;
    this.gauges = gauges;
    this.fine = new int[columns * ConsoleHistory.FINE_SLOTS];
    this.coarse = new int[columns * ConsoleHistory.COARSE_SLOTS];
    Arrays.fill(fine, NONE);
    Arrays.fill(coarse, NONE);
    this.startTick = tick;
    this.startMinute = minute;
    this.sinceMillis = nowMillis;
    this.lastTick = tick - 1;
    this.lastMinute = minute - 1;
    this.lastActiveMillis = nowMillis;
  }

  /** Writes one sample at {@code tick} (in {@code minute}); ticks skipped since the last are left without one. */
  void record(long tick, long minute, int[] values) {
    int fineSlots = ConsoleHistory.FINE_SLOTS;
    for (long t = Math.max(lastTick + 1, tick - fineSlots + 1); t < tick; t++) {
      int slot = (int) Math.floorMod(t, (long) fineSlots);
      for (int c = 0; c < columns; c++) {
        fine[c * fineSlots + slot] = NONE;
      }
    }
    int slot = (int) Math.floorMod(tick, (long) fineSlots);
    for (int c = 0; c < columns; c++) {
      fine[c * fineSlots + slot] = values[c];
    }
    lastTick = tick;

    int coarseSlots = ConsoleHistory.COARSE_SLOTS;
    if (minute != lastMinute) {
      for (long m = Math.max(lastMinute + 1, minute - coarseSlots + 1); m <= minute; m++) {
        int s = (int) Math.floorMod(m, (long) coarseSlots);
        for (int c = 0; c < columns; c++) {
          coarse[c * coarseSlots + s] = NONE;
        }
      }
      lastMinute = minute;
    }
    int cs = (int) Math.floorMod(minute, (long) coarseSlots);
    for (int c = 0; c < columns; c++) {
      int i = c * coarseSlots + cs;
      if (c < gauges || coarse[i] == NONE) {
        coarse[i] = values[c];
      } else {
        coarse[i] = (int) Math.min(Integer.MAX_VALUE, (long) coarse[i] + values[c]);
      }
    }
  }

  /** The sample of {@code column} at {@code tick}, or {@link #NONE}. */
  int fineAt(int column, long tick) {
    if (tick < startTick || tick > lastTick || tick <= lastTick - ConsoleHistory.FINE_SLOTS) {
      return NONE;
    }
    return fine[column * ConsoleHistory.FINE_SLOTS + (int) Math.floorMod(tick, (long) ConsoleHistory.FINE_SLOTS)];
  }

  /** The value of {@code column} in {@code minute}, or {@link #NONE}. */
  int coarseAt(int column, long minute) {
    if (minute < startMinute || minute > lastMinute || minute <= lastMinute - ConsoleHistory.COARSE_SLOTS) {
      return NONE;
    }
    return coarse[column * ConsoleHistory.COARSE_SLOTS
        + (int) Math.floorMod(minute, (long) ConsoleHistory.COARSE_SLOTS)];
  }

  /** What this series holds, counted from its arrays' lengths. */
  long retainedBytes() {
    return OVERHEAD_BYTES + arrayBytes(fine.length) + arrayBytes(coarse.length);
  }

  static long arrayBytes(int ints) {
    return ARRAY_HEADER_BYTES + 4L * ints;
  }
}
