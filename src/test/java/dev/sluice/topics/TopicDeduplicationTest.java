package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A FIFO topic's five-minute deduplication window, on a manual clock. */
class TopicDeduplicationTest {
  @Test
  void aKeyIsADuplicateForFiveMinutesThenNewAgain() {
    TopicDeduplication d = new TopicDeduplication();
    d.remember("k", "m1", 7, 1_000);
    assertEquals("m1", d.find("k", 1_000 + TopicDeduplication.WINDOW_MILLIS - 1).messageId());
    assertEquals(7, d.find("k", 1_000).sequenceNumber());
    assertNull(d.find("k", 1_000 + TopicDeduplication.WINDOW_MILLIS));
    assertEquals(0, d.size(), "expired entries are pruned");
  }

  @Test
  void pruningStopsAtTheFirstEntryStillInItsWindow() {
    TopicDeduplication d = new TopicDeduplication();
    d.remember("a", "m1", 1, 0);
    d.remember("b", "m2", 2, 100_000);
    d.remember("c", "m3", 3, 200_000);
    assertNull(d.find("a", TopicDeduplication.WINDOW_MILLIS + 1));
    assertEquals(2, d.size());
    assertEquals("m3", d.find("c", TopicDeduplication.WINDOW_MILLIS + 1).messageId());
  }
}
