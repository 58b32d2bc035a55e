package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON reader behind policies and attribute values: exactly one object, each key once. */
class JsonTextTest {
  @Test
  void readsAnObjectAsWritten() {
    assertEquals(Map.of("Effect", "Allow", "Action", List.of("sqs:SendMessage"), "n", 3),
        JsonText.parseObject("{\"Effect\":\"Allow\",\"Action\":[\"sqs:SendMessage\"],\"n\":3}"));
  }

  @Test
  void aRepeatedKeyIsNoObjectAtAll() {
    // Read as the last value but shown as the first, a policy would be enforced other than it reads.
    assertNull(JsonText.parseObject("{\"Effect\":\"Deny\",\"Action\":\"sqs:*\",\"Effect\":\"Allow\"}"));
    assertNull(JsonText.parseObject("{\"Statement\":[{\"Sid\":\"a\",\"Sid\":\"b\"}]}"));
  }

  @Test
  void anythingButOneObjectIsRefused() {
    assertNull(JsonText.parseObject("[1]"));
    assertNull(JsonText.parseObject("{} {}"));
    assertNull(JsonText.parseObject(""));
  }
}
