package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.model.Digests;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class AttributesJsonTest {
  @Test
  void attributesComeBackExactlySoTheirMd5IsTheSame() {
    Map<String, MessageAttributeValue> sent = new TreeMap<>(Map.of(
        "text", new MessageAttributeValue("String.custom", "caf\u00e9 \"quoted\" \uD83D\uDE00", null),
        "n", new MessageAttributeValue("Number", "1493147359900", null),
        "bin", new MessageAttributeValue("Binary.gif", null, "\u0000\u00ff bytes".getBytes(StandardCharsets.ISO_8859_1))));
    Map<String, MessageAttributeValue> back = AttributesJson.decode(AttributesJson.encode(sent));
    assertEquals(Digests.md5OfAttributes(sent), Digests.md5OfAttributes(back));
    assertEquals(sent.get("text"), back.get("text"));
    assertArrayEquals(sent.get("bin").binaryValue(), back.get("bin").binaryValue());
    assertNull(AttributesJson.encode(Map.of()));
    assertNull(AttributesJson.decode(null));
  }
}
