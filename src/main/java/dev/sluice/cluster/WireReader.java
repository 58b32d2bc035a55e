package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link WireWriter} wrote, from {@code [position, end)} of a buffer. Every size read is
 * checked against the bytes left before anything is allocated for it (each element takes at least
 * one byte), so a hostile frame cannot make this node allocate more than its own length; anything
 * malformed is a {@link FrameRefused}. Confined to the thread decoding one frame.
 */
final class WireReader {
  private final Buffer buffer;
  private final int end;
  private int position;

  WireReader(Buffer buffer, int position, int end) {
    this.buffer = buffer;
    this.position = position;
    this.end = end;
  }

  int remaining() {
    return end - position;
  }

  byte readByte() {
    need(1);
    return buffer.getByte(position++);
  }

  long readLong() {
    need(8);
    long v = buffer.getLong(position);
    position += 8;
    return v;
  }

  long readVarint() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = readByte();
      if (shift == 63 && (b & 0x7E) != 0) {
        break;
      }
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new FrameRefused("a varint longer than 64 bits");
  }

  long readZigzagLong() {
    long v = readVarint();
    return v >>> 1 ^ -(v & 1);
  }

  int readZigzagInt() {
    long v = readVarint();
    if ((v & ~0xFFFF_FFFFL) != 0) {
      throw new FrameRefused("an int longer than 32 bits");
    }
    return (int) (v >>> 1) ^ -((int) v & 1);
  }

  /** A size of bytes or elements, or -1 for null; never more than the bytes left. */
  int readSize() {
    long v = readVarint();
    if (v == 0) {
      return -1;
    }
    if (v < 0 || v - 1 > remaining()) {
      throw new FrameRefused("a size of " + Long.toUnsignedString(v - 1) + " with " + remaining()
          + " bytes left");
    }
    return (int) (v - 1);
  }

  String readString() {
    int size = readSize();
    if (size < 0) {
      return null;
    }
    String s = buffer.getString(position, position + size, StandardCharsets.UTF_8.name());
    position += size;
    return s;
  }

  byte[] readBytes() {
    int size = readSize();
    if (size < 0) {
      return null;
    }
    byte[] b = buffer.getBytes(position, position + size);
    position += size;
    return b;
  }

  /** Whether a value follows (1) or it is null (0). */
  boolean readPresence() {
    byte b = readByte();
    if (b != 0 && b != 1) {
      throw new FrameRefused("a presence byte of " + b);
    }
    return b == 1;
  }

  /** Everything was read: a frame with bytes left over is not one this node wrote. */
  void expectEnd() {
    if (position != end) {
      throw new FrameRefused(remaining() + " bytes left over after the frame");
    }
  }

  private void need(int bytes) {
    if (remaining() < bytes) {
      throw new FrameRefused("truncated: " + bytes + " more bytes needed, " + remaining() + " left");
    }
  }
}
