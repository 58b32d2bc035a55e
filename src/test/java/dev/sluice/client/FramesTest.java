package dev.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TCP bridge's framing, read from a stream cut anywhere. */
class FramesTest {
  private final List<JsonObject> frames = new ArrayList<>();
  private final Frames.Decoder decoder = new Frames.Decoder(1024, frames::add);

  private static JsonObject frame(int i) {
    return new JsonObject().put("type", "message").put("address", "sluice.push.x").put("body", new JsonObject().put("n", i)
        .put("text", "ünïcödé " + i));
  }

  @Test
  void encodesALengthPrefixAndUtf8Json() {
    Buffer b = Frames.encode(new JsonObject().put("k", "é"));
    byte[] json = "{\"k\":\"é\"}".getBytes(StandardCharsets.UTF_8);
    assertEquals(json.length, b.getInt(0));
    assertEquals(new JsonObject().put("k", "é"), new JsonObject(b.getBuffer(4, b.length())));
  }

  @Test
  void framesSplitAtEveryByteAreReassembled() {
    Buffer stream = Buffer.buffer().appendBuffer(Frames.encode(frame(1))).appendBuffer(Frames.encode(frame(2)));
    for (int i = 0; i < stream.length(); i++) {
      decoder.feed(stream.getBuffer(i, i + 1));
    }
    assertEquals(List.of(frame(1), frame(2)), frames);
  }

  @Test
  void framesMergedInOneReadAreAllHandedOn() {
    Buffer stream = Buffer.buffer();
    for (int i = 0; i < 5; i++) {
      stream.appendBuffer(Frames.encode(frame(i)));
    }
    Buffer partial = Frames.encode(frame(5));
    decoder.feed(stream.appendBuffer(partial.getBuffer(0, 7)));
    assertEquals(5, frames.size());
    decoder.feed(partial.getBuffer(7, partial.length()));
    assertEquals(frame(5), frames.get(5));
  }

  @Test
  void aLengthOverTheLimitBreaksTheStream() {
    SluiceClientException e = assertThrows(SluiceClientException.class,
        () -> decoder.feed(Buffer.buffer().appendInt(1025).appendString("{}")));
    assertEquals("ProtocolError", e.code());
    assertThrows(SluiceClientException.class, () -> decoder.feed(Frames.encode(frame(1))), "nothing more is read");
    assertTrue(frames.isEmpty());
  }

  @Test
  void aNegativeLengthBreaksTheStream() {
    assertThrows(SluiceClientException.class, () -> decoder.feed(Buffer.buffer().appendInt(-1)));
  }

  @Test
  void malformedJsonBreaksTheStreamAfterTheFramesBeforeIt() {
    Buffer bad = Buffer.buffer("{\"type\": ");
    Buffer stream = Frames.encode(frame(1)).appendInt(bad.length()).appendBuffer(bad);
    SluiceClientException e = assertThrows(SluiceClientException.class, () -> decoder.feed(stream));
    assertEquals("ProtocolError", e.code());
    assertEquals(List.of(frame(1)), frames);
  }

  @Test
  void jsonThatIsNotAnObjectBreaksTheStream() {
    Buffer array = Buffer.buffer("[1, 2]");
    assertThrows(SluiceClientException.class, () -> decoder.feed(Buffer.buffer().appendInt(array.length()).appendBuffer(array)));
  }
}
