package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.PeekMessages.PeekedAttribute;
import dev.sluice.persistence.MessageContent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The codec moved from {@code persistence.MessageContent} writes and reads format version 1 byte for
 * byte as before (rows already in PostgreSQL are read without a migration), and a slab payload is
 * those bytes plus the attributes' MD5 as {@link Digests} computes it.
 */
class PackedContentTest {
  static final HexFormat HEX = HexFormat.of();

  /** Written out field by field from the format's description, and what MessageContent produced. */
  static final String FULL_V1 = "01" + "1f" // version 1; trace, group, dedup, DLQ source, attributes
      + "06" + "68c3a96c6c6f" + "04" + "41494441" // body "héllo" in UTF-8, sender "AIDA"
      + "06" + "526f6f743d31" + "0167" + "0164" + "05" + "61726e3a71" // "Root=1", "g", "d", "arn:q"
      + "03" // three attributes, in the sorted map's order
      + "03" + "62696e" + "06" + "42696e617279" + "01" + "03" + "00ff07" // bin: Binary, kind 1, 3 bytes
      + "016e" + "06" + "4e756d626572" + "00" + "02" + "3432" // n: Number, kind 0, "42"
      + "0173" + "08" + "537472696e672e78" + "00" + "05" + "636166c3a9"; // s: String.x, "café"
  static final String MINIMAL_V1 = "01" + "00" + "04" + "626f6479" + "06" + "73656e646572";

  static Map<String, MessageAttributeValue> attributes() {
    Map<String, MessageAttributeValue> a = new TreeMap<>();
    a.put("bin", new MessageAttributeValue("Binary", null, new byte[] {0, (byte) 0xff, 7}));
    a.put("n", new MessageAttributeValue("Number", "42", null));
    a.put("s", new MessageAttributeValue("String.x", "caf\u00e9", null));
    return a;
  }

  static PackedContent full() {
    return new PackedContent("h\u00e9llo", attributes(), "Root=1", "AIDA", "g", "d", "arn:q");
  }

  static MessageContent asOld(PackedContent c) {
    return new MessageContent(c.body(), c.attributes(), c.traceHeader(), c.senderId(), c.groupId(),
        c.deduplicationId(), c.deadLetterSourceArn());
  }

  @Test
  void encodesTheGoldenBytesOfVersionOne() {
    assertEquals(FULL_V1, HEX.formatHex(full().encode()));
    assertEquals(FULL_V1, HEX.formatHex(asOld(full()).encode()));
    PackedContent minimal = new PackedContent("body", null, null, "sender", null, null, null);
    assertEquals(MINIMAL_V1, HEX.formatHex(minimal.encode()));
    assertEquals(MINIMAL_V1, HEX.formatHex(asOld(minimal).encode()));
  }

  @Test
  void decodesWhatMessageContentWroteAndTheOtherWayRound() {
    assertEquals(full(), PackedContent.decode(HEX.parseHex(FULL_V1)));
    assertEquals(full(), PackedContent.decode(asOld(full()).encode()));
    MessageContent back = MessageContent.decode(full().encode());
    assertEquals(asOld(full()), back);
    assertEquals(new PackedContent("body", null, null, "sender", null, null, null),
        PackedContent.decode(HEX.parseHex(MINIMAL_V1)));
  }

  @Test
  void randomContentsEncodeAsMessageContentDoes() {
    Random random = new Random(20);
    for (int i = 0; i < 500; i++) {
      PackedContent c = randomContent(random);
      byte[] bytes = c.encode();
      assertArrayEquals(asOld(c).encode(), bytes, "content " + i);
      assertEquals(c, PackedContent.decode(bytes));
      assertEquals(asOld(c), MessageContent.decode(bytes));
    }
  }

  @Test
  void packingStraightIntoAnArrayMakesThePayloadsBytesAndSize() {
    Random random = new Random(21);
    for (int i = 0; i < 500; i++) {
      PackedContent c = randomContent(random);
      byte[] payload = c.pack();
      assertEquals(payload.length, c.packedSize(), "content " + i);
      byte[] into = new byte[payload.length + 7];
      c.packInto(into, 5);
      assertArrayEquals(payload, java.util.Arrays.copyOfRange(into, 5, 5 + payload.length), "content " + i);
    }
  }

  @Test
  void aBodyWhoseLengthPrefixOutgrowsItsCharCountIsWrittenAsTheJdksEncoderWritesIt() {
    // The body is written after a prefix sized for its chars and moved when its bytes need a longer one.
    for (String body : new String[] {"a".repeat(127), "\u00e9".repeat(64), "\u00e9".repeat(100), "a".repeat(127) + "\u4e2d",
        "\u4e2d".repeat(5462), "a".repeat(16383) + "\u00e9", "\uD83D\uDE00".repeat(40)}) {
      PackedContent c = new PackedContent(body, null, null, "s", null, null, null);
      assertArrayEquals(asOld(c).encode(), c.encode(), body.length() + " chars");
      byte[] into = new byte[c.packedSize() + 3];
      c.packInto(into, 3);
      assertArrayEquals(c.pack(), java.util.Arrays.copyOfRange(into, 3, into.length), body.length() + " chars");
    }
  }

  @Test
  void anUnpairedSurrogateIsWrittenAsTheJdksEncoderWritesIt() {
    // Validation refuses such bodies, but a content is encoded the same whichever way it was made.
    for (String odd : new String[] {"a\uD83D", "\uDE00b", "\uD83D\uD83D\uDE00", "x\uDBFFy"}) {
      PackedContent c = new PackedContent(odd, null, null, "s", null, null, null);
      assertArrayEquals(asOld(c).encode(), c.encode(), odd);
      assertEquals(c.encode().length, c.packedSize(), odd);
    }
  }

  @Test
  void aPayloadEndsWithTheAttributesMd5AsDigestsComputesIt() {
    byte[] payload = full().pack();
    byte[] v1 = HEX.parseHex(FULL_V1);
    assertEquals(v1.length + PackedContent.MD5_BYTES, payload.length);
    assertArrayEquals(v1, Arrays.copyOf(payload, v1.length));
    String md5 = Digests.md5OfAttributes(attributes());
    assertEquals(md5, HEX.formatHex(payload, v1.length, payload.length));
    assertEquals(md5, HEX.formatHex(PackedContent.attributesMd5(payload, 0, payload.length)));
    assertEquals(md5, HEX.formatHex(full().attributesMd5()));
    assertEquals(v1.length, PackedContent.encodedLength(payload, 0, payload.length));
  }

  @Test
  void theMd5IsAwsValueForAwsTestVector() {
    PackedContent c = new PackedContent("b", Map.of("Foo", MessageAttributeValue.ofString("Bar")), null, "s",
        null, null, null);
    byte[] payload = c.pack();
    assertEquals("ae7155c6026991b6d54b11589678bf9c",
        HEX.formatHex(PackedContent.attributesMd5(payload, 0, payload.length)));
  }

  @Test
  void withoutAttributesThePayloadIsTheVersionOneBytes() {
    PackedContent none = new PackedContent("body", null, null, "sender", null, null, null);
    PackedContent empty = new PackedContent("body", Map.of(), null, "sender", null, null, null);
    assertEquals(MINIMAL_V1, HEX.formatHex(none.pack()));
    assertEquals(MINIMAL_V1, HEX.formatHex(empty.pack()));
    byte[] payload = none.pack();
    assertNull(PackedContent.attributesMd5(payload, 0, payload.length));
    assertNull(empty.attributesMd5());
    assertNull(PackedContent.unpack(payload, 0, payload.length).attributes());
  }

  @Test
  void unpacksFromTheMiddleOfALargerArray() {
    byte[] payload = full().pack();
    byte[] chunk = new byte[payload.length + 40];
    Arrays.fill(chunk, (byte) 0x7f);
    System.arraycopy(payload, 0, chunk, 17, payload.length);
    assertEquals(full(), PackedContent.unpack(chunk, 17, payload.length));
  }

  @Test
  void aColumnValueIsPackedWithoutTheCallerDecodingIt() {
    byte[] column = asOld(full()).encode();
    assertArrayEquals(full().pack(), PackedContent.packEncoded(column));
    byte[] plain = HEX.parseHex(MINIMAL_V1);
    assertSame(plain, PackedContent.packEncoded(plain));
  }

  @Test
  void anUnknownVersionOrATruncatedValueIsRefusedRatherThanMisread() {
    byte[] encoded = full().encode();
    encoded[0] = 9;
    assertThrows(IllegalStateException.class, () -> PackedContent.decode(encoded));
    assertThrows(IllegalStateException.class, () -> PackedContent.unpack(encoded, 0, encoded.length));
    byte[] whole = full().encode();
    assertThrows(IllegalStateException.class, () -> PackedContent.decode(whole, 0, whole.length - 3));
  }

  static PackedContent randomContent(Random random) {
    Map<String, MessageAttributeValue> attributes = null;
    if (random.nextInt(3) > 0) {
      attributes = new TreeMap<>();
      for (int n = random.nextInt(4); n > 0; n--) {
        attributes.put(text(random, 1 + random.nextInt(10)), random.nextBoolean()
            ? new MessageAttributeValue("Binary", null, text(random, random.nextInt(30)).getBytes(StandardCharsets.UTF_8))
            : new MessageAttributeValue("String", text(random, random.nextInt(30)), null));
      }
      if (attributes.isEmpty()) {
        attributes = null; // an empty map is written as none and so read back as null
      }
    }
    return new PackedContent(text(random, random.nextInt(random.nextBoolean() ? 20 : 400)), attributes,
        optional(random), text(random, 12), optional(random), optional(random), optional(random));
  }

  @Test
  void aPreviewCutsTheBodyAndEachValueOnCharacterBoundariesAndKeepsTheIdsWhole() {
    for (byte[] bytes : new byte[][] {full().pack(), full().encode()}) { // a payload, and a column value
      ContentPreview p = PackedContent.preview(bytes, 0, bytes.length, 2, 2);
      assertEquals("h", p.body()); // "hé": the 2-byte é does not fit after h
      assertEquals(6, p.bodyBytes());
      assertTrue(p.bodyTruncated());
      assertEquals(new PeekedAttribute("Binary", null, new byte[] {0, (byte) 0xff}, 3, true), p.attributes().get("bin"));
      assertEquals(new PeekedAttribute("Number", "42", null, 2, false), p.attributes().get("n"));
      assertEquals(new PeekedAttribute("String.x", "ca", null, 5, true), p.attributes().get("s"));
      assertEquals(List.of("Root=1", "AIDA", "g", "d", "arn:q"),
          List.of(p.traceHeader(), p.senderId(), p.groupId(), p.deduplicationId(), p.deadLetterSourceArn()));
      assertEquals(1 + 2 + 2 + 2, p.shownBytes());
    }
    byte[] minimal = HEX.parseHex(MINIMAL_V1);
    ContentPreview p = PackedContent.preview(minimal, 0, minimal.length, 4, 256);
    assertEquals("body", p.body());
    assertFalse(p.bodyTruncated());
    assertNull(p.attributes());
    assertNull(p.groupId());
  }

  @Test
  void randomContentsPreviewAsTheLongestWholeCharacterPrefixThatFits() {
    Random random = new Random(5);
    for (int i = 0; i < 2_000; i++) {
      PackedContent c = randomContent(random);
      byte[] payload = c.pack();
      int maxBody = random.nextInt(40);
      int maxValue = random.nextInt(12);
      byte[] padded = new byte[payload.length + 9];
      System.arraycopy(payload, 0, padded, 4, payload.length);
      ContentPreview p = PackedContent.preview(padded, 4, payload.length, maxBody, maxValue);
      assertLongestPrefix(c.body(), p.body(), maxBody);
      assertEquals(c.body().getBytes(StandardCharsets.UTF_8).length, p.bodyBytes());
      int shown = p.body().getBytes(StandardCharsets.UTF_8).length;
      if (c.attributes() != null && !c.attributes().isEmpty()) {
        for (Map.Entry<String, MessageAttributeValue> e : c.attributes().entrySet()) {
          PeekedAttribute a = p.attributes().get(e.getKey());
          MessageAttributeValue v = e.getValue();
          if (v.binaryValue() != null) {
            assertArrayEquals(Arrays.copyOf(v.binaryValue(), Math.min(maxValue, v.binaryValue().length)), a.binaryValue());
            shown += a.binaryValue().length;
          } else {
            assertLongestPrefix(v.stringValue(), a.stringValue(), maxValue);
            shown += a.stringValue().getBytes(StandardCharsets.UTF_8).length;
          }
        }
      }
      assertEquals(shown, p.shownBytes());
      assertEquals(c.senderId(), p.senderId());
      assertEquals(c.deadLetterSourceArn(), p.deadLetterSourceArn());
    }
  }

  /** {@code shown} is the longest prefix of whole characters of {@code whole} of at most {@code max} UTF-8 bytes. */
  static void assertLongestPrefix(String whole, String shown, int max) {
    assertTrue(whole.startsWith(shown), shown + " of " + whole);
    int bytes = shown.getBytes(StandardCharsets.UTF_8).length;
    assertTrue(bytes <= max || shown.equals(whole), shown);
    if (!shown.equals(whole)) {
      String next = whole.substring(0, shown.length() + Character.charCount(whole.codePointAt(shown.length())));
      assertTrue(next.getBytes(StandardCharsets.UTF_8).length > max, "a longer prefix fits: " + next);
    }
  }

  private static String optional(Random random) {
    return random.nextBoolean() ? text(random, random.nextInt(70)) : null;
  }

  /** Letters, Latin-1, a CJK character and an emoji: one to four UTF-8 bytes each. */
  static String text(Random random, int length) {
    String[] pieces = {"a", "Z", "\u00e9", "\u4e2d", "\uD83D\uDE00", " ", "\u0000"};
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append(pieces[random.nextInt(pieces.length)]);
    }
    return b.toString();
  }
}
