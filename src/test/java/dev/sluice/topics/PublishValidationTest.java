package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A publish checked as SNS checks it, with AWS's recorded texts for each refusal. */
class PublishValidationTest {
  static PublishContent check(String message, String subject, String structure, Map<String, MessageAttributeValue> a) {
    return PublishValidation.check(message, subject, structure, a, null, null, "");
  }

  static SnsException refusal(String message, String subject, String structure, Map<String, MessageAttributeValue> a) {
    return assertThrows(SnsException.class, () -> check(message, subject, structure, a));
  }

  static MessageAttributeValue string(String type, String value) {
    return new MessageAttributeValue(type, value, null);
  }

  @Test
  void theMessageAndSubjectAreChecked() {
    assertEquals("Invalid parameter: Empty message", refusal("", null, null, null).getMessage());
    assertEquals(SnsErrorCode.VALIDATION_ERROR, refusal(null, null, null, null).code());
    assertEquals("Invalid parameter: Subject", refusal("m", "", null, null).getMessage());
    assertEquals("Invalid parameter: Subject", refusal("m", "line\nbreak", null, null).getMessage());
    assertEquals("Invalid parameter: Subject", refusal("m", "s".repeat(101), null, null).getMessage());
    assertEquals("s".repeat(100), check("m", "s".repeat(100), null, null).subject());
  }

  @Test
  void theSizeCountsTheMessageAndEveryAttributesNameTypeAndValue() {
    Map<String, MessageAttributeValue> attrs = Map.of("ab", string("String", "xyz"));
    int overhead = 2 + 6 + 3;
    check("m".repeat(262_144 - overhead), null, null, attrs);
    assertEquals("Invalid parameter: Message too long",
        refusal("m".repeat(262_145 - overhead), null, null, attrs).getMessage());
    // Bytes, not characters: a two-byte character counts twice.
    assertEquals("Invalid parameter: Message too long", refusal("é".repeat(131_073), null, null, null).getMessage());
  }

  @Test
  void messageStructureJsonNeedsAStringDefault() {
    PublishContent c = check("{\"default\":\"d\",\"sqs\":\"q\",\"n\":1}", null, "json", null);
    assertEquals("d", c.message());
    assertEquals("q", c.messageFor("sqs"));
    assertEquals("d", c.messageFor("http"));
    assertEquals("Invalid parameter: Message Structure - No default entry in JSON message body",
        refusal("{\"sqs\":\"q\"}", null, "json", null).getMessage());
    assertEquals("Invalid parameter: Message Structure - No default entry in JSON message body",
        refusal("{\"default\":{\"object\":\"test\"}}", null, "json", null).getMessage());
    assertEquals("Invalid parameter: Message Structure - JSON message body failed to parse",
        refusal("{\"default\": \"x\"} }", null, "json", null).getMessage());
    assertEquals("Invalid parameter: MessageStructure", refusal("m", null, "xml", null).getMessage());
  }

  @Test
  void attributesGetAwsRecordedTexts() {
    String[][] cases = {
        {"attr1", "String.", "v", "The message attribute 'attr1' has an invalid message attribute type, the set of"
            + " supported type prefixes is Binary, Number, and String."},
        {"attr1", "Stringprefixed", "v", "The message attribute 'attr1' has an invalid message attribute type, the"
            + " set of supported type prefixes is Binary, Number, and String."},
        {"attr1", "String", "", "The message attribute 'attr1' must contain non-empty message attribute value for"
            + " message attribute type 'String'."},
        {"attr1", "String", null, "The message attribute 'attr1' must contain non-empty message attribute value for"
            + " message attribute type 'String'."},
        {"a".repeat(257), "String", "v", "Length of message attribute name must be less than 256 bytes."},
        {"a^*?", "String", "v", "Invalid non-alphanumeric character '#x5E' was found in the message attribute name."
            + " Can only include alphanumeric characters, hyphens, underscores, or dots."},
        {".abc", "String", "v", "Invalid message attribute name starting with character '.' was found."},
        {"abc.", "String", "v", "Invalid message attribute name ending with character '.' was found."},
        {"a..bc", "String", "v", "Message attribute name can not have successive '.' character."},
        {"n", "Number", "ten", "Could not cast message attribute 'n' value to number."}};
    for (String[] c : cases) {
      SnsException e = refusal("m", null, null, Map.of(c[0], string(c[1], c[2])));
      assertEquals(SnsErrorCode.PARAMETER_VALUE_INVALID, e.code(), c[3]);
      assertEquals(c[3], e.getMessage());
    }
    assertEquals("The message attribute 'attr1' with type 'String' must use field 'String'.", refusal("m", null, null,
        Map.of("attr1", new MessageAttributeValue("String", null, new byte[] {1}))).getMessage());
    assertEquals("The message attribute 'attr1' with type 'Binary' must use field 'Binary'.", refusal("m", null, null,
        Map.of("attr1", new MessageAttributeValue("Binary", "123", null))).getMessage());
    assertEquals("The message attribute 'attr1' must contain non-empty message attribute value for message attribute"
        + " type 'Binary'.", refusal("m", null, null,
        Map.of("attr1", new MessageAttributeValue("Binary", null, new byte[0]))).getMessage());
    SnsException noType = refusal("m", null, null, Map.of("attr1", string(null, "v")));
    assertEquals("1 validation error detected: Value null at 'messageAttributes.attr1.member.dataType' failed to"
        + " satisfy constraint: Member must not be null", noType.getMessage());
    Map<String, MessageAttributeValue> fine = new LinkedHashMap<>();
    fine.put("String.prefixed", string("String.prefixed", "v"));
    fine.put("n_1-x", string("Number.float", "1.5e3"));
    fine.put("list", string("String.Array", "[\"a\",1]"));
    assertEquals(fine, check("m", null, null, fine).attributes());
  }
}
