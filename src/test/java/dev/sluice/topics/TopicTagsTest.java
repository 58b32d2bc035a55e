package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A topic's tags: overwrite, untag, the quota of 50 (all or nothing) and the rules for keys and values. */
class TopicTagsTest {
  @Test
  void tagsOverwriteAndUntagKeepingTheirOrder() {
    TopicTags t = new TopicTags();
    t.tag(Map.of("k1", "v1"));
    t.tag(Map.of("k2", "v2"));
    t.tag(Map.of("k1", "v1b"));
    assertEquals(List.of("k1", "k2"), List.copyOf(t.ordered().keySet()));
    assertEquals("v1b", t.ordered().get("k1"));
    t.untag(List.of("k1", "absent"));
    assertEquals(Map.of("k2", "v2"), t.asMap());
    assertTrue(t.includes(Map.of("k2", "v2")));
    assertTrue(t.includes(Map.of()));
    assertFalse(t.includes(Map.of("k2", "other")));
  }

  @Test
  void theQuotaIsFiftyAndARefusedTaggingAddsNothing() {
    TopicTags t = new TopicTags();
    Map<String, String> fifty = new LinkedHashMap<>();
    for (int i = 0; i < 50; i++) {
      fifty.put("k" + i, "v");
    }
    t.tag(fifty);
    SnsException e = assertThrows(SnsException.class, () -> t.tag(Map.of("one-more", "v")));
    assertEquals(SnsErrorCode.TAG_LIMIT_EXCEEDED, e.code());
    assertEquals(50, t.asMap().size());
    t.tag(Map.of("k0", "changed")); // overwriting stays within the quota
    assertEquals("changed", t.asMap().get("k0"));
  }

  @Test
  void keysAndValuesFollowTheTaggingRules() {
    TopicTags t = new TopicTags();
    assertThrows(SnsException.class, () -> t.tag(Map.of("", "v")));
    assertThrows(SnsException.class, () -> t.tag(Map.of("k".repeat(129), "v")));
    assertThrows(SnsException.class, () -> t.tag(Map.of("aws:reserved", "v")));
    assertThrows(SnsException.class, () -> t.tag(Map.of("k", "v".repeat(257))));
    assertThrows(SnsException.class, () -> t.tag(Map.of("k#", "v")));
    t.tag(Map.of("k".repeat(128), "v".repeat(256), "a b_.:/=+-@", ""));
    assertEquals(2, t.asMap().size());
  }
}
