package dev.sluice.client;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The TCP bridge's framing: a 4-byte big-endian length, then that many bytes of UTF-8 JSON (one
 * object). Writes frames, and reassembles them from reads split or merged anywhere.
 */
final class Frames {
  /**
   * The largest frame accepted from the server: a pushed message carries a body of up to 1 MiB, which
   * JSON escaping can make several times longer.
   */
  static final int MAX_FRAME_BYTES = 8 * 1024 * 1024;

  private Frames() {}

  static Buffer encode(JsonObject frame) {
    byte[] json = frame.encode().getBytes(StandardCharsets.UTF_8);
    return Buffer.buffer(4 + json.length).appendInt(json.length).appendBytes(json);
  }

  /**
   * Turns the bytes of one connection, as they are read, into frames. A length over the limit or a
   * frame that is not a JSON object is a broken stream: {@link #feed} throws, and the decoder takes
   * nothing more. One per connection, on its event loop.
   */
  static final class Decoder {
    private final int maxFrameBytes;
    private final Consumer<JsonObject> frames;
    private Buffer pending = Buffer.buffer();
    private boolean broken;

    Decoder(int maxFrameBytes, Consumer<JsonObject> frames) {
      this.maxFrameBytes = maxFrameBytes;
      this.frames = frames;
    }

    /** Takes the bytes of one read; hands on every frame they complete, in order. */
    void feed(Buffer data) {
      if (broken) {
        throw new SluiceClientException("ProtocolError", 0, "The connection's stream was broken already.");
      }
      pending.appendBuffer(data);
      int at = 0;
      try {
        while (pending.length() - at >= 4) {
          int length = pending.getInt(at);
          if (length < 0 || length > maxFrameBytes) {
            throw new SluiceClientException("ProtocolError", 0,
                "A frame of " + Integer.toUnsignedString(length) + " bytes is over the limit of " + maxFrameBytes + ".");
          }
          if (pending.length() - at - 4 < length) {
            break;
          }
          JsonObject frame = parse(pending.getBuffer(at + 4, at + 4 + length));
          at += 4 + length;
          frames.accept(frame);
        }
      } catch (SluiceClientException e) {
        broken = true;
        throw e;
      } finally {
        if (!broken && at > 0) {
          pending = pending.getBuffer(at, pending.length());
        }
      }
    }

    private static JsonObject parse(Buffer json) {
      try {
        return new JsonObject(json);
      } catch (DecodeException | ClassCastException e) {
        throw new SluiceClientException("ProtocolError", 0, "A frame is not a JSON object: " + e.getMessage());
      }
    }
  }
}
