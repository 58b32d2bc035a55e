package dev.sluice.model;

/** Big-endian reads of fixed-width numbers from byte arrays. */
final class Bytes {
  private Bytes() {}

  static long longAt(byte[] b, int offset) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[offset + i] & 0xffL);
    }
    return v;
  }
}
