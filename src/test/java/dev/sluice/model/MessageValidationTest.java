package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.SqsException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageValidationTest {
  static SqsException attrFails(String name, MessageAttributeValue v) {
    return assertThrows(SqsException.class, () -> MessageValidation.checkAttributes(Map.of(name, v)));
  }

  @Test
  void bodyCharactersOutsideTheXmlSetAreInvalidMessageContents() {
    for (String bad : new String[] {"a\u0000b", "\u0001", "x\u0008", "\uFFFF", "\uD800 lone surrogate"}) {
      SqsException e = assertThrows(SqsException.class, () -> MessageValidation.checkBody(bad));
      assertEquals(ErrorCode.INVALID_MESSAGE_CONTENTS, e.code());
    }
    MessageValidation.checkBody("tab\tnew\nline\rcr \uD83D\uDE00 \uE000 \"&quot;\"");
  }

  @Test
  void unpairedSurrogatesAreRefusedWhateverTheDecoderDid() {
    // A JSON \ud800 escape gives a lone surrogate; the protocols turn malformed UTF-8 into them too.
    for (String bad : new String[] {"\uD800", "x\uDC00y", "\uDCFF", "end\uD83D", "\uDE00\uD83D"}) {
      SqsException e = assertThrows(SqsException.class, () -> MessageValidation.checkBody(bad));
      assertEquals(ErrorCode.INVALID_MESSAGE_CONTENTS, e.code());
      assertEquals("Invalid binary character (malformed UTF-8 or an unpaired surrogate) was found in the message"
          + " body, the set of allowed characters is #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000"
          + " to #x10FFFF", e.getMessage());
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, attrFails("a", MessageAttributeValue.ofString(bad)).code());
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, attrFails("a\uDCFF", MessageAttributeValue.ofString("v")).code());
      SqsException trace = assertThrows(SqsException.class, () -> MessageValidation.checkSystemAttributes(
          Map.of("AWSTraceHeader", MessageAttributeValue.ofString("Root=" + bad))));
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, trace.code());
    }
    assertEquals("Invalid binary character '#x1' was found in the message body, the set of allowed characters is"
        + " #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF",
        assertThrows(SqsException.class, () -> MessageValidation.checkBody("\u0001")).getMessage());
  }

  @Test
  void emptyBodyIsAMissingParameter() {
    SqsException e = assertThrows(SqsException.class, () -> MessageValidation.checkBody(""));
    assertEquals(ErrorCode.MISSING_PARAMETER, e.code());
    assertEquals("The request must contain the parameter MessageBody.", e.getMessage());
  }

  @Test
  void attributeTypesAreStringNumberOrBinaryWithOptionalLabel() {
    MessageValidation.checkAttributes(Map.of(
        "a", new MessageAttributeValue("String.custom", "x", null),
        "b", new MessageAttributeValue("Number.float", "1.5e3", null),
        "c", new MessageAttributeValue("Binary.gif", null, new byte[] {1}),
        "attr.1øßä", MessageAttributeValue.ofString("latin-1 letters are accepted")));
    SqsException e = attrFails("a", new MessageAttributeValue("Text", "x", null));
    assertEquals("The type of message (user) attribute 'a' is invalid. You must use only the following supported"
        + " type prefixes: Binary, Number, String.", e.getMessage());
  }

  @Test
  void emptyValuesAndBadNumbersAreRejected() {
    assertEquals("Message (user) attribute 'a' must contain a non-empty value of type 'String'.",
        attrFails("a", MessageAttributeValue.ofString("")).getMessage());
    attrFails("n", new MessageAttributeValue("Number", "twelve", null));
    attrFails("n", new MessageAttributeValue("Number", "1234567890".repeat(4), null));
    attrFails("n", new MessageAttributeValue("Number", "1e127", null));
    attrFails("b", new MessageAttributeValue("Binary", null, new byte[0]));
    attrFails("s", MessageAttributeValue.ofString("bad\u0000char"));
  }

  @Test
  void attributeNamesFollowTheRules() {
    for (String bad : new String[] {"AWS.x", "amazon.y", ".lead", "trail.", "a..b", "sp ace", "x".repeat(257)}) {
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, attrFails(bad, MessageAttributeValue.ofString("v")).code());
    }
  }

  @Test
  void atMostTenAttributes() {
    Map<String, MessageAttributeValue> m = new HashMap<>();
    for (int i = 0; i < 11; i++) {
      m.put("a" + i, MessageAttributeValue.ofString("v"));
    }
    SqsException e = assertThrows(SqsException.class, () -> MessageValidation.checkAttributes(m));
    assertTrue(e.getMessage().contains("[11]"));
  }

  @Test
  void payloadCountsBodyAndEveryAttributePart() {
    // As AWS counts it (the SQS message metadata guide): k + String + x = 8 bytes.
    assertEquals(8, MessageValidation.payloadBytes("", Map.of("k", MessageAttributeValue.ofString("x"))));
    assertEquals(4 + 3, MessageValidation.payloadBytes("\uD83D\uDE00\u00e9\u00e9".substring(0, 2) + "\u20ac", null));
  }

  @Test
  void onlyAwsTraceHeaderIsASystemAttribute() {
    MessageValidation.checkSystemAttributes(Map.of("AWSTraceHeader", MessageAttributeValue.ofString("Root=1")));
    assertThrows(SqsException.class,
        () -> MessageValidation.checkSystemAttributes(Map.of("Other", MessageAttributeValue.ofString("x"))));
  }

  @Test
  void groupAndDeduplicationIdsArePrintableAsciiUpTo128() {
    MessageValidation.checkGroupOrDedupId("group-1!#$%", "MessageGroupId");
    SqsException e = assertThrows(SqsException.class,
        () -> MessageValidation.checkGroupOrDedupId("has space", "MessageGroupId"));
    assertEquals("Value has space for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include"
        + " alphanumeric and punctuation characters. 1 to 128 in length.", e.getMessage());
    assertThrows(SqsException.class, () -> MessageValidation.checkGroupOrDedupId("x".repeat(129), "MessageGroupId"));
  }
}
