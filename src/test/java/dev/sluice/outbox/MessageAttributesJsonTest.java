package dev.sluice.outbox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** message_attributes' JSON becomes a send's attributes; a bad shape refuses the row with a clear reason. */
class MessageAttributesJsonTest {
  @Test
  void stringNumberAndBinaryAttributesAreRead() throws Exception {
    Map<String, MessageAttributeValue> a = MessageAttributesJson.parse("{\"tenant\": {\"DataType\": \"String\","
        + " \"StringValue\": \"acme\"}, \"n\": {\"DataType\": \"Number.int\", \"StringValue\": \"42\"},"
        + " \"raw\": {\"DataType\": \"Binary\", \"BinaryValue\": \"AAEC\"}}");
    assertEquals(MessageAttributeValue.ofString("acme"), a.get("tenant"));
    assertEquals(new MessageAttributeValue("Number.int", "42", null), a.get("n"));
    assertArrayEquals(new byte[] {0, 1, 2}, a.get("raw").binaryValue());
    assertEquals("Binary", a.get("raw").dataType());
    assertEquals(java.util.List.of("tenant", "n", "raw"), java.util.List.copyOf(a.keySet()));
  }

  @Test
  void noAttributesIsNull() throws Exception {
    assertNull(MessageAttributesJson.parse(null));
    assertNull(MessageAttributesJson.parse("{}"));
    assertNull(MessageAttributesJson.parse("null"));
  }

  @Test
  void aBadShapeRefusesTheRowSayingWhy() {
    assertRefused("not JSON", "{\"a\": ");
    assertRefused("JSON object", "[1, 2]");
    assertRefused("is a JSON string, not an object", "\"{\\\"a\\\": {}}\"");
    assertRefused("message_attributes.a must be an object", "{\"a\": \"x\"}");
    assertRefused("message_attributes.a.DataType", "{\"a\": {\"StringValue\": \"x\"}}");
    assertRefused("exactly one of StringValue and BinaryValue", "{\"a\": {\"DataType\": \"String\"}}");
    assertRefused("takes StringValue", "{\"a\": {\"DataType\": \"String\", \"BinaryValue\": \"AA==\"}}");
    assertRefused("takes BinaryValue", "{\"a\": {\"DataType\": \"Binary\", \"StringValue\": \"x\"}}");
    assertRefused("not base64", "{\"a\": {\"DataType\": \"Binary\", \"BinaryValue\": \"%%%\"}}");
    assertRefused("must be a JSON string", "{\"a\": {\"DataType\": \"Number\", \"StringValue\": 5}}");
    assertRefused("unknown field StringListValues", "{\"a\": {\"DataType\": \"String\", \"StringValue\": \"x\","
        + " \"StringListValues\": []}}");
  }

  static void assertRefused(String expected, String json) {
    RowRefusedException e = assertThrows(RowRefusedException.class, () -> MessageAttributesJson.parse(json), json);
    assertTrue(e.getMessage().contains(expected), expected + " in: " + e.getMessage());
    assertEquals("InvalidParameterValue", e.dead(7).errorCode());
  }
}
