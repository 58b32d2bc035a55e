package dev.sluice.protocol.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The request parser and response writer, checked against Vert.x's own Jackson-based JSON. */
class JsonCodecTest {
  static Object parse(String json) {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    return JsonParser.parse(b, 0, b.length);
  }

  @Test
  void parsesEveryJsonValueKind() {
    String doc = "{\"s\":\"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00 raw é\",\"i\":-42,\"big\":12345678901234567890,"
        + "\"d\":1.5e3,\"t\":true,\"f\":false,\"n\":null,\"a\":[1,[],{}],\"o\":{\"k\":\"v\"}}";
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) parse(doc);
    assertEquals("a\"b\\c/\n\u00e9\uD83D\uDE00 raw é", m.get("s"));
    assertEquals(-42L, m.get("i"));
    assertEquals(1.2345678901234567e19, (Double) m.get("big"), 1e4);
    assertEquals(1500.0, m.get("d"));
    assertEquals(true, m.get("t"));
    assertEquals(false, m.get("f"));
    assertEquals(true, m.containsKey("n"));
    assertEquals(List.of(1L, List.of(), Map.of()), m.get("a"));
    assertEquals(Map.of("k", "v"), m.get("o"));
  }

  @Test
  void textThatIsNotUtf8OrHoldsALoneSurrogateEscapeIsKeptVisibleForTheChecks() {
    byte[] doc = {'{', '"', 'a', '"', ':', '"', 'x', (byte) 0xFF, '"', ',', '"', 'b', '"', ':', '"', '\\', 'n',
        (byte) 0xC3, '"', '}'};
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) JsonParser.parse(doc, 0, doc.length);
    assertEquals("x\uDCFF", m.get("a"), "a malformed byte, not U+FFFD");
    assertEquals("\n\uDCC3", m.get("b"), "after an escape too");
    assertEquals("\uD800", parse("\"\\ud800\""), "a lone surrogate escape");
  }

  @Test
  void theReaderRefusesTextThatIsNotWellFormedExceptWhereTheEngineChecksIt() {
    JsonReader r = JsonReader.of(io.vertx.core.buffer.Buffer.buffer(
        "{\"QueueUrl\":\"q\\udc00\",\"MessageBody\":\"b\\ud800\",\"Tags\":{\"k\":\"\\udfff\"},"
            + "\"TagKeys\":[\"\\ud800\"]}"));
    for (Runnable read : List.<Runnable>of(() -> r.string("QueueUrl"), () -> r.string("MessageBody"),
        () -> r.stringMap("Tags"), () -> r.strings("TagKeys"))) {
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, assertThrows(SqsException.class, read::run).code());
    }
    assertEquals("b\uD800", r.text("MessageBody"), "left for the engine to refuse with its own code");
  }

  @Test
  void rejectsWhatIsNotExactlyOneJsonValue() {
    for (String bad : List.of("", "{", "{\"a\":}", "{\"a\":1,}", "[1 2]", "{\"a\":\"\u0001\"}", "{} {}", "tru",
        "{\"a\":\"\\x\"}", "{a:1}", "\"unterminated", "{\"a\":1e999}", "-.5", "1.", "007", "-", "1e", "+1")) {
      assertThrows(IllegalArgumentException.class, () -> parse(bad), bad);
    }
  }

  @Test
  void writerOutputIsValidJsonWithEveryCharacterEscaped() {
    String nasty = "quote\" back\\ nl\n cr\r tab\t nul\u0000 bell\u0007 emoji\uD83D\uDE00 é lone\uD800 x\uDC00";
    JsonWriter w = new JsonWriter().beginObject()
        .string("s", nasty)
        .bool("b", true)
        .stringsIf("empty", List.of())
        .stringsIf("list", List.of("x", "y"))
        .stringMapIf("map", Map.of("k", "v"))
        .beginArray("objects").beginObject().string("Id", "1").endObject().beginObject().endObject().endArray()
        .endObject();
    JsonObject back = new JsonObject(w.toString());
    assertEquals(nasty, back.getString("s"));
    assertEquals(true, back.getBoolean("b"));
    assertEquals(false, back.containsKey("empty"));
    assertEquals(List.of("x", "y"), back.getJsonArray("list").getList());
    assertEquals("v", back.getJsonObject("map").getString("k"));
    assertEquals(2, back.getJsonArray("objects").size());
  }

  @Test
  void readerReportsWrongTypesAsSerializationExceptions() {
    @SuppressWarnings("unchecked")
    JsonReader r = new JsonReader((Map<String, Object>) parse("{\"n\":\"10\",\"l\":{},\"i\":1.0,\"huge\":3000000000}"));
    SqsException e = assertThrows(SqsException.class, () -> r.integer("n"));
    assertEquals(ErrorCode.SERIALIZATION_EXCEPTION, e.code());
    assertEquals(ErrorCode.SERIALIZATION_EXCEPTION, assertThrows(SqsException.class, () -> r.strings("l")).code());
    assertEquals(ErrorCode.SERIALIZATION_EXCEPTION, assertThrows(SqsException.class, () -> r.integer("huge")).code());
    assertEquals(1, r.integer("i"));
    assertEquals(null, r.string("absent"));
  }
}
