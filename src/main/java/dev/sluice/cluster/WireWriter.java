package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * The compact wire forms that {@link WireReader} reads back: unsigned LEB128 varints, zigzag for
 * signed numbers (small negatives such as -1 stay one byte), and strings, byte arrays, lists and
 * maps behind a size written plus one, so that 0 is null.
 */
final class WireWriter {
  private WireWriter() {}

  static void varint(Buffer out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.appendByte((byte) (v & 0x7F | 0x80));
      v >>>= 7;
    }
    out.appendByte((byte) v);
  }

  static void zigzag(Buffer out, long v) {
    varint(out, v << 1 ^ v >> 63);
  }

  static void zigzag(Buffer out, int v) {
    varint(out, (v << 1 ^ v >> 31) & 0xFFFF_FFFFL);
  }

  /** A size (bytes or elements), or -1 for null. */
  static void size(Buffer out, int size) {
    varint(out, size + 1L);
  }

  static void string(Buffer out, String s) {
    bytes(out, s == null ? null : s.getBytes(StandardCharsets.UTF_8));
  }

  static void bytes(Buffer out, byte[] b) {
    if (b == null) {
      size(out, -1);
    } else {
      size(out, b.length);
      out.appendBytes(b);
    }
  }

  static void presence(Buffer out, Object value) {
    out.appendByte((byte) (value == null ? 0 : 1));
  }
}
