package dev.sluice.model;

/**
 * Runs a {@link ContentSlab}'s compaction from its shard's {@link DueTimeIndex}: one bounded step
 * each time it is due, then again a millisecond later while the slab still needs it, so compaction
 * takes tens of microseconds of a turn and other work runs between steps (design/tails.md §2.3).
 * The shard wakes it after releasing records; waking it when nothing needs doing costs nothing.
 */
public final class SlabCompactor extends Timed {
  /** Between steps: not the same {@link DueTimeIndex#fireDue} round, a later timer turn. */
  static final long PAUSE_MILLIS = 1;

  private final ContentSlab slab;
  private final DueTimeIndex index;
  private final int stepBytes;

  public SlabCompactor(ContentSlab slab, DueTimeIndex index) {
    this(slab, index, ContentSlab.COMPACTION_STEP_BYTES);
  }

  SlabCompactor(ContentSlab slab, DueTimeIndex index, int stepBytes) {
    this.slab = slab;
    this.index = index;
    this.stepBytes = stepBytes;
  }

  /** Schedules a step at {@code nowMillis} if the slab needs compaction and none is pending. */
  public void wake(long nowMillis) {
    if (!isScheduled() && slab.needsCompaction()) {
      index.schedule(this, nowMillis);
    }
  }

  @Override
  public void onDue(long nowMillis) {
    // A step that did no work found nothing to do: waiting for the next release to wake it
    // again, rather than spinning, is what keeps a surprise from costing a turn every millisecond.
    if (slab.compact(stepBytes) > 0 && slab.needsCompaction()) {
      index.schedule(this, nowMillis + PAUSE_MILLIS);
    }
  }
}
