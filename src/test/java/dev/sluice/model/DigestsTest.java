package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.api.MessageAttributeValue;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The test vectors of the SQS message metadata guide, all recorded from AWS. */
class DigestsTest {
  static MessageAttributeValue str(String v) {
    return MessageAttributeValue.ofString(v);
  }

  @Test
  void bodyDigestsMatchAws() {
    assertEquals("6e2baaf3b97dbeef01c0043275f9a0e7", HexFormat.of().formatHex(Digests.md5("msg")));
    assertEquals("78e731027d8fd50ed642340b7c9a63b3", HexFormat.of().formatHex(Digests.md5("message")));
  }

  @Test
  void stringAttributeDigestsMatchAws() {
    assertEquals("ae7155c6026991b6d54b11589678bf9c", Digests.md5OfAttributes(Map.of("Foo", str("Bar"))));
    assertEquals("a45daa70926828a2f0a1db3418e6feb4", Digests.md5OfAttributes(Map.of("k", str("x"))));
  }

  @Test
  void digestIsOverNamesInSortedOrderWhateverTheMapOrder() {
    Map<String, MessageAttributeValue> m = new LinkedHashMap<>();
    m.put("Help.Me", str("Me"));
    m.put("Hello", str("There"));
    m.put("General", str("Kenobi"));
    assertEquals("4c360f3fdafd970e05fae2f149d997f5", Digests.md5OfAttributes(m));
    m.remove("Help.Me");
    assertEquals("fca026605781cb4126a1e9044df24232", Digests.md5OfAttributes(m));
    assertEquals("a311262e065454b75da111d535b8dacd", Digests.md5OfAttributes(Map.of("Hello", str("There"))));
    assertEquals("83fee93c1bcd8b9a5a923ffacdc636c7",
        Digests.md5OfAttributes(Map.of("Hello", str("There"), "Help.Me", str("Me"))));
  }

  @Test
  void numberAndBinaryAttributeDigestsMatchAws() {
    assertEquals("235c5c510d26fb653d073faed50ae77c",
        Digests.md5OfAttributes(Map.of("timestamp", new MessageAttributeValue("Number", "1493147359900", null))));
    byte[] bytes = "traceparent\u001e00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01"
        .getBytes(StandardCharsets.UTF_8);
    assertEquals("8cbe4db156db8a94db8b801b7addb984",
        Digests.md5OfAttributes(Map.of("attr1", new MessageAttributeValue("Binary", null, bytes))));
  }

  @Test
  void systemAttributeDigestUsesTheSameAlgorithm() {
    assertEquals("5ae4d5d7636402d80f4eb6d213245a88", Digests.md5OfAttributes(Map.of("AWSTraceHeader",
        str("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"))));
  }

  @Test
  void noAttributesNoDigest() {
    assertNull(Digests.md5OfAttributes(Map.of()));
    assertNull(Digests.md5OfAttributes(null));
  }
}
