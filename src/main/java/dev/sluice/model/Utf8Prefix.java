package dev.sluice.model;

/**
 * Where to cut UTF-8 bytes so that a prefix of at most so many bytes holds whole characters only:
 * the console shows a body's or an attribute value's first bytes, and a character split in two
 * would decode as a replacement character that was never sent. Pure.
 */
final class Utf8Prefix {
  private Utf8Prefix() {}

  /**
   * The length of the longest prefix of the {@code length} valid UTF-8 bytes at {@code start} that
   * is at most {@code maxBytes} long and ends on a character boundary.
   */
  static int length(byte[] buf, int start, int length, int maxBytes) {
    if (length <= maxBytes) {
      return length;
    }
    int cut = Math.max(maxBytes, 0);
    // A continuation byte (10xxxxxx) at the cut means the cut splits a character: step back to
    // its lead byte, at most three bytes in valid UTF-8.
    while (cut > 0 && (buf[start + cut] & 0xC0) == 0x80) {
      cut--;
    }
    return cut;
  }
}
