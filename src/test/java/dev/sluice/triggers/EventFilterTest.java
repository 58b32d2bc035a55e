package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A trigger's FilterCriteria on records as the event gives them: any pattern passes, a JSON body is read as JSON. */
class EventFilterTest {
  static String record(String bodyJsonString, String attributes) {
    return "{\"messageId\":\"m\",\"receiptHandle\":\"r\",\"body\":" + bodyJsonString + ",\"attributes\":{"
        + "\"ApproximateReceiveCount\":\"1\"},\"messageAttributes\":" + attributes + ",\"md5OfBody\":\"x\"}";
  }

  @Test
  void withoutPatternsEveryRecordPasses() {
    EventFilter f = new EventFilter(List.of());
    assertFalse(f.filters());
    assertTrue(f.passes(record("\"anything\"", "{}")));
  }

  @Test
  void aRecordPassesWhenAnyPatternMatches() {
    EventFilter f = new EventFilter(List.of("{\"body\": {\"kind\": [\"refund\"]}}",
        "{\"messageAttributes\": {\"tier\": {\"stringValue\": [\"gold\"]}}}"));
    assertTrue(f.passes(record("\"{\\\"kind\\\": \\\"refund\\\"}\"", "{}")));
    assertFalse(f.passes(record("\"{\\\"kind\\\": \\\"order\\\"}\"", "{}")));
    assertTrue(f.passes(record("\"{\\\"kind\\\": \\\"order\\\"}\"",
        "{\"tier\":{\"stringValue\":\"gold\",\"dataType\":\"String\"}}")), "the second pattern");
    assertFalse(f.passes(record("\"kind refund\"", "{}")), "a body that is not JSON has no key kind");
  }

  @Test
  void aRuleRightUnderBodyMatchesAPlainBody() {
    EventFilter f = new EventFilter(List.of("{\"body\": [{\"prefix\": \"keep\"}]}"));
    assertTrue(f.passes(record("\"keep me\"", "{}")));
    assertFalse(f.passes(record("\"drop me\"", "{}")));
  }
}
