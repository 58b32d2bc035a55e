package dev.sluice.model;

/**
 * Which records a {@link ContentSlab}'s compaction moves, and how many per step: the policy; the
 * slab does the moving ({@link ContentSlab#move}). It evacuates one chunk at a time, the sparsest
 * shared one (not the open chunk, which receives the records, nor a dedicated one, which is exactly
 * its record), walking it from its start with a cursor kept across steps. Only a chunk emptied frees
 * anything, so a chunk begun is finished before another is chosen, even once the slack is back
 * under the bound.
 *
 * <p>It settles: over the bound the sparsest shared chunk is under 75% live (the open chunk holds at
 * most one chunk of slack and dedicated chunks none, so the shared chunks average over 25% slack),
 * and evacuating it frees a whole chunk while filling the open chunk with its under-75% plus at most
 * one unusable tail of under a quarter chunk (no shared record is larger): every evacuation lowers
 * the slack of the chunks that are not open. At the 75% mark that is three bytes copied per byte
 * freed; a FIFO-like use frees whole chunks and never gets here.
 */
final class SlabCompaction {
  private final ContentSlab slab;
  /** The chunk being evacuated, and the offset of its next record to look at. */
  private SlabChunk victim;
  private int cursor;

  SlabCompaction(ContentSlab slab) {
    this.slab = slab;
  }

  boolean inProgress() {
    return victim != null;
  }

  /** The slab dropped a chunk: if it was the one being evacuated, the evacuation is over. */
  void dropped(SlabChunk c) {
    if (c == victim) {
      victim = null;
    }
  }

  /**
   * Moves records until the step's work reaches {@code maxBytes}: the bytes of each record moved,
   * plus 8 for each dead header walked past (so a chunk of many small dead records is walked in
   * bounded steps too). A step's first record moves whatever its size, so every step progresses;
   * after that a record that would take the work past the bound waits for the next step. Returns the
   * work done; 0 when the slab is under its slack bound and no evacuation is under way.
   */
  int step(int maxBytes) {
    int work = 0;
    while (work < maxBytes) {
      if (victim == null) {
        if (!slab.overSlackBound() || (victim = sparsest()) == null) {
          break;
        }
        cursor = 0;
      }
      SlabChunk from = victim;
      int at = cursor;
      int bytes = from.recordBytes(at);
      if (from.isDead(at)) {
        work += SlabChunk.HEADER;
      } else if (work > 0 && work + bytes > maxBytes) {
        break;
      } else {
        slab.move(from, at); // drops `from` (and so ends this evacuation) once it holds no live record
        work += bytes;
      }
      cursor = at + bytes;
      if (victim == from && cursor >= from.top) {
        victim = null;
      }
    }
    return work;
  }

  private SlabChunk sparsest() {
    SlabChunk[] best = new SlabChunk[1];
    slab.forEachChunk(c -> {
      if (!slab.isOpen(c) && !c.dedicated && (best[0] == null || c.live < best[0].live)) {
        best[0] = c;
      }
    });
    return best[0];
  }
}
