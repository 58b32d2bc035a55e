package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.model.Digests;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MessageContentTest {
  @Test
  void everyFieldComesBackExactlySoTheMd5sAreTheSame() {
    Map<String, MessageAttributeValue> sent = new TreeMap<>(Map.of(
        "text", new MessageAttributeValue("String.custom", "caf\u00e9 \"quoted\" \uD83D\uDE00", null),
        "n", new MessageAttributeValue("Number", "1493147359900", null),
        "empty", new MessageAttributeValue("String", "", null),
        "bin", new MessageAttributeValue("Binary.gif", null, "\u0000\u00ff bytes".getBytes(StandardCharsets.ISO_8859_1))));
    String body = "x".repeat(300) + " \uD83D\uDE00 \u0000"; // a length past one varint byte
    MessageContent c = new MessageContent(body, sent, "Root=1-abc", "AIDA123", "group-1", "dedup-1",
        "arn:aws:sqs:us-east-1:000000000000:source");
    MessageContent back = MessageContent.decode(c.encode());
    assertEquals(Digests.md5OfAttributes(sent), Digests.md5OfAttributes(back.attributes()));
    assertEquals(sent.get("text"), back.attributes().get("text"));
    assertArrayEquals(sent.get("bin").binaryValue(), back.attributes().get("bin").binaryValue());
    assertEquals(new MessageContent(body, back.attributes(), "Root=1-abc", "AIDA123", "group-1", "dedup-1",
        "arn:aws:sqs:us-east-1:000000000000:source"), back);
  }

  @Test
  void absentFieldsStayAbsent() {
    MessageContent back = MessageContent.decode(new MessageContent("", Map.of(), null, "s", null, null, null).encode());
    assertEquals("", back.body());
    assertNull(back.attributes());
    assertNull(back.traceHeader());
    assertNull(back.groupId());
    assertNull(back.deduplicationId());
    assertNull(back.deadLetterSourceArn());
  }

  @Test
  void anUnknownVersionIsRefusedRatherThanMisread() {
    byte[] encoded = new MessageContent("b", null, null, "s", null, null, null).encode();
    encoded[0] = 9;
    assertThrows(IllegalStateException.class, () -> MessageContent.decode(encoded));
  }
}
