package dev.sluice.model;

import dev.sluice.api.SqsException;
import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * The console's name for a message within its queue (design/console.md §2.6, {@code key}): the
 * queue's generation and the message's key (what {@link MessageIndex} keys on), 16 bytes in URL-safe
 * base64 without padding. The generation makes a key from a queue since deleted and made again name
 * nothing rather than whichever message took the same key there. Opaque to the console; it grants
 * nothing (the peek is checked as ReceiveMessage on the queue it names). Pure.
 */
final class PeekKeys {
  private static final int BYTES = 16;
  /** 16 bytes in unpadded base64. */
  private static final int LENGTH = 22;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private PeekKeys() {}

  static String encode(long generation, long key) {
    return ENCODER.encodeToString(ByteBuffer.allocate(BYTES).putLong(generation).putLong(key).array());
  }

  /**
   * The message key {@code text} names in the queue of {@code generation}, or null when it names a
   * message of another generation of the queue; InvalidParameterValue when it is no key at all.
   */
  static Long decode(long generation, String text) {
    byte[] bytes = null;
    if (text != null && text.length() == LENGTH) {
      try {
        bytes = DECODER.decode(text);
      } catch (IllegalArgumentException notBase64) {
        bytes = null;
      }
    }
    if (bytes == null || bytes.length != BYTES || !encode(ByteBuffer.wrap(bytes).getLong(0),
        ByteBuffer.wrap(bytes).getLong(8)).equals(text)) {
      throw SqsException.invalidValue(text, "MessageKey", "It is not a message key.");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    return b.getLong() == generation ? b.getLong() : null;
  }
}
