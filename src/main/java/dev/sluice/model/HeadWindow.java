package dev.sluice.model;

/**
 * How much of each queue's never-received backlog a shard keeps in memory when the durable store
 * can hold the rest (paged mode), built by the engine from its storage settings.
 *
 * @param messages the most never-received messages a queue keeps resident (W)
 * @param bytes the most bytes one page read may bring in
 * @param pageRows the most rows one page read asks for
 * @param delayedHorizonMillis a delayed send stays resident (as an "extra") only if it becomes
 *     visible within this horizon; later ones go to the durable store and are read back when due
 * @param bucketMillis the width of the buckets that count durable-only delayed rows by due time:
 *     such rows become visible, and are counted as visible, up to one bucket late
 */
public record HeadWindow(int messages, long bytes, int pageRows, long delayedHorizonMillis, long bucketMillis) {
  /**
   * Memory mode, and paging switched off: every message is resident, exactly as before paging
   * existed, and the memory budget refuses sends once spent.
   */
  public static final HeadWindow UNBOUNDED = new HeadWindow(Integer.MAX_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE,
      Long.MAX_VALUE, 1);

  public HeadWindow {
    if (messages < 1 || bytes < 1 || pageRows < 1 || delayedHorizonMillis < 0 || bucketMillis < 1) {
      throw new IllegalArgumentException("invalid head window " + messages + "/" + bytes + "/" + pageRows + "/"
          + delayedHorizonMillis + "/" + bucketMillis);
    }
  }

  /** A window of {@code messages} with the production defaults for the rest. */
  public static HeadWindow of(int messages) {
    return new HeadWindow(messages, 1 << 20, 1000, 30_000, 100);
  }

  /** Whether messages beyond the window go to the durable store (false: everything is resident). */
  public boolean paged() {
    return messages != Integer.MAX_VALUE;
  }
}
