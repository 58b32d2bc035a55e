package dev.sluice.model;

/**
 * The content format's fields: a varint length, then the bytes (strings in UTF-8), measured and
 * written without making an intermediate array. Strings are encoded as {@code
 * String.getBytes(UTF_8)} encodes them, byte for byte, an unpaired surrogate included (as {@code
 * '?'}), so a record is the same whichever way it was made (PackedContentTest checks both).
 */
final class Utf8Field {
  private Utf8Field() {}

  static int varintSize(int value) {
    int n = 1;
    while ((value & ~0x7F) != 0) {
      value >>>= 7;
      n++;
    }
    return n;
  }

  static int size(String s) {
    int bytes = utf8Length(s);
    return varintSize(bytes) + bytes;
  }

  static int sizeIfPresent(String s) {
    return s == null ? 0 : size(s);
  }

  static int size(byte[] b) {
    return varintSize(b.length) + b.length;
  }

  static int putVarint(byte[] dst, int pos, int value) {
    while ((value & ~0x7F) != 0) {
      dst[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    dst[pos++] = (byte) value;
    return pos;
  }

  static int put(byte[] dst, int pos, byte[] b) {
    pos = putVarint(dst, pos, b.length);
    System.arraycopy(b, 0, dst, pos, b.length);
    return pos + b.length;
  }

  /**
   * Writes {@code s} as a field in one pass over it: its bytes go where a length prefix for {@code
   * s.length()} bytes ends (a string never has fewer UTF-8 bytes than chars), and move along only
   * when the real length needs a longer prefix: when non-ASCII chars carry the byte count past a
   * power of 128 (128, 16,384, …) that the char count is under. Measuring first was a second pass
   * over every body.
   */
  static int put(byte[] dst, int pos, String s) {
    int n = s.length();
    int guess = varintSize(n);
    int start = pos + guess;
    int end = encode(dst, start, s);
    int bytes = end - start;
    int prefix = varintSize(bytes);
    if (prefix != guess) {
      System.arraycopy(dst, start, dst, pos + prefix, bytes);
    }
    putVarint(dst, pos, bytes);
    return pos + prefix + bytes;
  }

  /** Encodes {@code s} at {@code pos} as {@code String.getBytes(UTF_8)} would; returns the end. */
  private static int encode(byte[] dst, int pos, String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        dst[pos++] = (byte) c;
      } else if (c < 0x800) {
        dst[pos++] = (byte) (0xC0 | (c >> 6));
        dst[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        dst[pos++] = (byte) (0xF0 | (cp >> 18));
        dst[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        dst[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        dst[pos++] = (byte) (0x80 | (cp & 0x3F));
      } else if (Character.isSurrogate(c)) {
        dst[pos++] = '?'; // what the JDK's encoder writes for an unpaired surrogate
      } else {
        dst[pos++] = (byte) (0xE0 | (c >> 12));
        dst[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        dst[pos++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return pos;
  }

  /** The bytes {@code String.getBytes(UTF_8)} would make of {@code s}. */
  static int utf8Length(String s) {
    int n = s.length();
    int bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          bytes += 1;
        } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          bytes += 2; // four bytes for two chars
          i++;
        } else if (!Character.isSurrogate(c)) {
          bytes += 2;
        }
      }
    }
    return bytes;
  }
}
