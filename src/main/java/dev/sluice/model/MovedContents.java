package dev.sluice.model;

/**
 * Keeps no state: the content a message moved to another queue has there (design/tails.md §2.5),
 * and what that does to its memory charge. A dead letter takes the ids its new queue gives it, and a
 * redriven message loses its dead-letter source, so the destination packs the travelling content
 * again with them; a message handed back keeps its content as it was.
 */
final class MovedContents {
  private MovedContents() {}

  /** {@code from}'s content with this deduplication id and dead-letter source, as a payload. */
  static byte[] repacked(Message from, String dedupId, String deadLetterSourceArn) {
    PackedContent c = from.content();
    return new PackedContent(c.body(), c.attributes(), c.traceHeader(), c.senderId(), c.groupId(), dedupId,
        deadLetterSourceArn).pack();
  }

  /**
   * What the moved message is charged here. Its charge came with it; the ids may change its
   * record's size by a few bytes, and the difference is charged (past the limit, as a move is never
   * refused) or released, so the budget stays the sum of what the resident messages are charged.
   */
  static int recharged(MemoryBudget budget, Message from, byte[] content) {
    int held = ArrivingMessages.heldBytes(content);
    if (held > from.heldBytes) {
      budget.chargeAnyway(held - from.heldBytes);
    } else if (held < from.heldBytes) {
      budget.release(from.heldBytes - held);
    }
    return held;
  }
}
