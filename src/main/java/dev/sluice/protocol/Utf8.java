package dev.sluice.protocol;

import dev.sluice.api.SqsException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Request text as the wire protocols decode it. Malformed UTF-8 is never replaced by U+FFFD, which
 * would change a message silently: each byte that is not part of a well-formed sequence becomes an
 * unpaired low surrogate, U+DC80 to U+DCFF (the convention Python calls "surrogateescape"). An
 * unpaired surrogate is not text, so whatever checks the value refuses it, exactly as it refuses a
 * lone surrogate a JSON {@code \ud800} escape produces: the engine for the members it checks
 * character by character (message bodies, attributes), {@link #checked} for the others. Stateless.
 */
public final class Utf8 {
  private Utf8() {}

  /** The text of {@code length} bytes from {@code offset}, malformed bytes as unpaired surrogates. */
  public static String decode(byte[] in, int offset, int length) {
    String s = new String(in, offset, length, StandardCharsets.UTF_8);
    // The JDK decoder turns malformed input into U+FFFD: without one, the input was well formed.
    return s.indexOf('\uFFFD') < 0 ? s : decodeEscaping(in, offset, length);
  }

  public static String decode(byte[] in) {
    return decode(in, 0, in.length);
  }

  private static String decodeEscaping(byte[] in, int offset, int length) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer bytes = ByteBuffer.wrap(in, offset, length);
    // One char per byte at most: a sequence of n bytes decodes to at most n chars, an escaped byte to one.
    CharBuffer out = CharBuffer.allocate(length);
    while (true) {
      CoderResult r = decoder.decode(bytes, out, true);
      if (r.isError()) {
        for (int i = 0; i < r.length(); i++) {
          out.put((char) (0xDC00 | (bytes.get() & 0xFF)));
        }
      } else {
        decoder.flush(out);
        return out.flip().toString();
      }
    }
  }

  /** True when {@code s} is well-formed text: every surrogate is part of a pair. */
  public static boolean isWellFormed(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c) || i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      }
    }
    return true;
  }

  /**
   * {@code value} when it is well-formed text (or null); InvalidParameterValue naming the
   * {@code parameter} otherwise. The value is not echoed: it is not text.
   */
  public static String checked(String value, String parameter) {
    if (value != null && !isWellFormed(value)) {
      throw SqsException.invalidParameter("The value of parameter " + parameter
          + " is not valid UTF-8: it holds a malformed byte sequence or an unpaired surrogate.");
    }
    return value;
  }
}
