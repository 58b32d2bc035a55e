package dev.sluice.topics.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Event filter patterns of SQS event source mappings. The first test restates LocalStack's
 * AWS-validated {@code test_sqs_event_filter} cases (tests/aws/services/lambda_/event_source_mapping,
 * each a pattern, a body AWS delivered and one it dropped), matched here against the record of each
 * body.
 */
class EventPatternTest {

  static Map<String, Object> record(String body) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("messageId", "m-1");
    r.put("body", EventPattern.bodyValue(body));
    r.put("attributes", Map.of("ApproximateReceiveCount", "1", "SenderId", "AIDA"));
    r.put("messageAttributes", Map.of("kind", Map.of("stringValue", "refund", "dataType", "String")));
    return r;
  }

  @Test
  void awsRecordedCases() {
    String[][] cases = {
        {"{\"body\": {\"testItem\": [\"test24\"]}}", "{\"testItem\": \"test24\"}", "{\"testItem\": \"tesWER\"}"},
        {"{\"body\": {\"testItem\": [\"test24\", \"test45\"]}}", "{\"testItem\": \"test45\"}", "{\"testItem\": \"WERTD\"}"},
        {"{\"body\": {\"testItem\": [\"test24\", \"test45\"], \"test2\": [\"go\"]}}",
            "{\"testItem\": \"test45\", \"test2\": \"go\"}", "{\"testItem\": \"test67\", \"test2\": \"go\"}"},
        {"{\"body\": {\"test2\": [{\"exists\": true}]}}", "{\"test2\": \"7411\"}", "{\"test5\": \"74545\"}"},
        {"{\"body\": {\"test2\": [{\"numeric\": [\">\", 100]}]}}", "{\"test2\": 105}", "this is a test string"},
        {"{\"body\": {\"test2\": [{\"numeric\": [\"<\", 100]}]}}", "{\"test2\": 93}", "{\"test2\": 105}"},
        {"{\"body\": {\"test2\": [{\"numeric\": [\">=\", 100, \"<\", 200]}]}}", "{\"test2\": 105}", "{\"test2\": 200}"},
        {"{\"body\": {\"test2\": [{\"prefix\": \"us-1\"}]}}", "{\"test2\": \"us-1-48454\"}", "{\"test2\": \"eu-wert\"}"},
    };
    for (String[] c : cases) {
      EventPattern p = EventPattern.parse(c[0]);
      assertTrue(p.matches(record(c[1])), c[0] + " delivers " + c[1]);
      assertFalse(p.matches(record(c[2])), c[0] + " drops " + c[2]);
    }
  }

  @Test
  void theRecordIsReadNestedAsTheEventGivesIt() {
    assertTrue(EventPattern.parse("{\"body\": [\"hello\"]}").matches(record("hello")), "a plain body is its string");
    assertFalse(EventPattern.parse("{\"body\": {\"a\": [\"hello\"]}}").matches(record("hello")));
    assertTrue(EventPattern.parse("{\"messageAttributes\": {\"kind\": {\"stringValue\": [\"refund\"]}}}")
        .matches(record("{}")));
    assertTrue(EventPattern.parse("{\"body\": {\"items\": {\"sku\": [{\"suffix\": \"-x\"}]}}}")
        .matches(record("{\"items\": [{\"sku\": \"a-y\"}, {\"sku\": \"b-x\"}]}")), "any element of an array");
    assertFalse(EventPattern.parse("{\"attributes\": {\"ApproximateReceiveCount\": [{\"numeric\": [\">\", 0]}]}}")
        .matches(record("{}")), "attribute values are strings: a numeric rule never matches them");
  }

  @Test
  void anyOfUpToFivePatternsLetsARecordThrough() {
    List<EventPattern> two = EventPattern.parseAll(List.of("{\"body\": {\"a\": [1]}}", "{\"body\": {\"b\": [2]}}"));
    assertTrue(EventPattern.anyMatches(two, record("{\"b\": 2}")));
    assertFalse(EventPattern.anyMatches(two, record("{\"c\": 3}")));
    assertTrue(EventPattern.anyMatches(List.of(), record("{}")), "no filter lets everything through");
    assertThrows(IllegalArgumentException.class, () -> EventPattern.parseAll(List.of("{\"a\": [1]}", "{\"a\": [1]}",
        "{\"a\": [1]}", "{\"a\": [1]}", "{\"a\": [1]}", "{\"a\": [1]}")));
  }

  @Test
  void everyInvalidPatternGetsLambdasOneAnswer() {
    for (String bad : new String[] {null, "", "test", "{\"body\": {\"a\": \"b\"}}", "{\"body\": {\"a\": []}}",
        "{\"body\": {\"a\": [{\"nope\": 1}]}}", "{\"$or\": [{\"a\": [1]}, {\"b\": [2]}]}",
        "{\"ip\": [{\"cidr\": \"10.0.0.0/8\"}]}", "{\"a\": [\"" + "x".repeat(4_100) + "\"]}", "{}", "[1]"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EventPattern.parse(bad),
          String.valueOf(bad));
      assertEquals("Invalid filter pattern definition.", e.getMessage());
    }
  }
}
