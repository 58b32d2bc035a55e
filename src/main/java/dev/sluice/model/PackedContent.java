package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.PeekMessages.PeekedAttribute;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a message was sent with and never changes (body, message attributes, trace header, sender,
 * FIFO group and deduplication ids, dead-letter source), packed into bytes: the {@code content}
 * column of a {@code sluice_messages} row, and the payload of the message's record in its shard's
 * {@link ContentSlab}. This is format version 1 of {@code persistence.MessageContent}, byte for byte
 * (rows written before need no migration); its home is here because the model packs contents into
 * the slab, and {@code persistence} may not import the model (design/tails.md §2.3).
 *
 * <p>Format, version 1 ({@link #encode()}): a version byte; a presence byte (bit 0 trace header, 1
 * group id, 2 deduplication id, 3 dead-letter source ARN, 4 attributes); the body; the sender id;
 * the present optional strings in that order; then, if present, the attribute count and per
 * attribute its name, data type, a kind byte (0 string, 1 binary) and its value. Strings and byte
 * values are a varint length then their bytes, strings in UTF-8. Attributes are written in the
 * map's order (a sorted map gives sorted bytes); an empty map counts as none.
 *
 * <p>Slab payload ({@link #pack()}): the version 1 bytes, then, when the presence byte says there
 * are attributes, their 16-byte MD5 ({@link Digests#md5OfAttributesBytes}), so a receive answers
 * {@code MD5OfMessageAttributes} without hashing again. Decision: the digest follows the version 1
 * bytes rather than preceding them (the design page's order), so a payload describes itself (the
 * presence byte says whether the 16 bytes are there, the slab's record header needs no flag) and
 * the version 1 bytes are its prefix, which is what the change log copies into a row.
 */
public record PackedContent(
    String body,
    Map<String, MessageAttributeValue> attributes,
    String traceHeader,
    String senderId,
    String groupId,
    String deduplicationId,
    String deadLetterSourceArn) {

  public static final byte VERSION = 1;
  /** Bytes of the attributes' MD5 that follow the version 1 bytes in a payload with attributes. */
  public static final int MD5_BYTES = 16;
  private static final int TRACE = 1;
  private static final int GROUP = 2;
  private static final int DEDUP = 4;
  private static final int DLQ = 8;
  private static final int ATTRIBUTES = 16;

  /** Format version 1: the bytes of the row's {@code content} column. */
  public byte[] encode() {
    return write(false);
  }

  /** The slab payload: the version 1 bytes, then the attributes' MD5 when there are attributes. */
  public byte[] pack() {
    return write(true);
  }

  /** The 16-byte MD5 of the attributes (as {@link Digests} computes it), or null without any. */
  public byte[] attributesMd5() {
    return Digests.md5OfAttributesBytes(attributes);
  }

  /** The content a column value holds; attributes sorted by name, null when there were none. */
  public static PackedContent decode(byte[] column) {
    return decode(column, 0, column.length);
  }

  /** As {@link #decode(byte[])}, from {@code length} bytes of {@code buf} at {@code offset}. */
  public static PackedContent decode(byte[] buf, int offset, int length) {
    Reader r = new Reader(buf, offset, offset + length);
    int version = r.read();
    if (version != VERSION) {
      throw new IllegalStateException("message content of unknown version " + version);
    }
    int present = r.read();
    String body = r.string();
    String sender = r.string();
    String trace = (present & TRACE) != 0 ? r.string() : null;
    String group = (present & GROUP) != 0 ? r.string() : null;
    String dedup = (present & DEDUP) != 0 ? r.string() : null;
    String dlq = (present & DLQ) != 0 ? r.string() : null;
    Map<String, MessageAttributeValue> attributes = null;
    if ((present & ATTRIBUTES) != 0) {
      attributes = new TreeMap<>();
      for (int n = r.varint(); n > 0; n--) {
        String name = r.string();
        String type = r.string();
        attributes.put(name, r.read() == 1
            ? new MessageAttributeValue(type, null, r.bytes())
            : new MessageAttributeValue(type, r.string(), null));
      }
    }
    return new PackedContent(body, attributes, trace, sender, group, dedup, dlq);
  }

  /** The content of a slab payload of {@code length} bytes at {@code offset} (its MD5 is skipped). */
  public static PackedContent unpack(byte[] buf, int offset, int length) {
    return decode(buf, offset, encodedLength(buf, offset, length));
  }

  /** How many of a payload's bytes are the version 1 encoding (all, or all but the MD5). */
  public static int encodedLength(byte[] buf, int offset, int length) {
    return hasAttributes(buf, offset) ? length - MD5_BYTES : length;
  }

  /** The attributes' MD5 a payload ends with, or null when it has no attributes. */
  public static byte[] attributesMd5(byte[] buf, int offset, int length) {
    int end = offset + length;
    return hasAttributes(buf, offset) ? Arrays.copyOfRange(buf, end - MD5_BYTES, end) : null;
  }

  /**
   * The slab payload of a row's column value, for a page read or start-up: the same bytes when
   * there are no attributes, else a copy with their MD5 appended (only the attributes are decoded
   * for it; the body stays bytes).
   */
  public static byte[] packEncoded(byte[] column) {
    if (!hasAttributes(column, 0)) {
      return column;
    }
    byte[] md5 = Digests.md5OfAttributesBytes(decode(column).attributes());
    byte[] payload = Arrays.copyOf(column, column.length + MD5_BYTES);
    System.arraycopy(md5, 0, payload, column.length, MD5_BYTES);
    return payload;
  }

  /**
   * The MD5 of the body's UTF-8 bytes in a payload or column value at {@code offset} (what
   * {@link Digests#md5(String)} gives for the body), read without decoding it: a row restored.
   */
  public static byte[] bodyMd5(byte[] buf, int offset, int length) {
    Reader r = new Reader(buf, offset, offset + length);
    r.read();
    r.read();
    int n = r.take();
    return Digests.md5(buf, r.pos - n, n);
  }

  /** The FIFO group id of a payload or column value, or null; the body is skipped, not decoded. */
  public static String groupId(byte[] buf, int offset, int length) {
    Reader r = new Reader(buf, offset, offset + length);
    if (r.read() != VERSION) {
      throw new IllegalStateException("message content of unknown version " + buf[offset]);
    }
    int present = r.read();
    if ((present & GROUP) == 0) {
      return null;
    }
    r.take(); // body
    r.take(); // sender
    if ((present & TRACE) != 0) {
      r.take();
    }
    return r.string();
  }

  /**
   * The console's preview of a payload or column value: at most {@code maxBodyBytes} of the body and
   * {@code maxValueBytes} of each attribute value (strings cut on a character boundary, bytes as they
   * are), with their whole lengths. Decodes only what it shows, so a peek of a 1 MiB body costs
   * what its preview does.
   */
  public static ContentPreview preview(byte[] buf, int offset, int length, int maxBodyBytes, int maxValueBytes) {
    Reader r = new Reader(buf, offset, offset + length);
    if (r.read() != VERSION) {
      throw new IllegalStateException("message content of unknown version " + buf[offset]);
    }
    int present = r.read();
    int bodyBytes = r.take();
    int bodyShown = Utf8Prefix.length(buf, r.pos - bodyBytes, bodyBytes, maxBodyBytes);
    String body = new String(buf, r.pos - bodyBytes, bodyShown, StandardCharsets.UTF_8);
    String sender = r.string();
    String trace = (present & TRACE) != 0 ? r.string() : null;
    String group = (present & GROUP) != 0 ? r.string() : null;
    String dedup = (present & DEDUP) != 0 ? r.string() : null;
    String dlq = (present & DLQ) != 0 ? r.string() : null;
    int shown = bodyShown;
    Map<String, PeekedAttribute> attributes = null;
    if ((present & ATTRIBUTES) != 0) {
      attributes = new TreeMap<>();
      for (int n = r.varint(); n > 0; n--) {
        String name = r.string();
        String type = r.string();
        boolean binary = r.read() == 1;
        int bytes = r.take();
        int start = r.pos - bytes;
        int cut = binary ? Math.min(bytes, maxValueBytes) : Utf8Prefix.length(buf, start, bytes, maxValueBytes);
        attributes.put(name, binary
            ? new PeekedAttribute(type, null, Arrays.copyOfRange(buf, start, start + cut), bytes, cut < bytes)
            : new PeekedAttribute(type, new String(buf, start, cut, StandardCharsets.UTF_8), null, bytes, cut < bytes));
        shown += cut;
      }
    }
    return new ContentPreview(body, bodyBytes, bodyShown < bodyBytes, attributes, trace, sender, group, dedup, dlq,
        shown);
  }

  private static boolean hasAttributes(byte[] buf, int offset) {
    if (buf[offset] != VERSION) {
      throw new IllegalStateException("message content of unknown version " + buf[offset]);
    }
    return (buf[offset + 1] & ATTRIBUTES) != 0;
  }

  private byte[] write(boolean withMd5) {
    byte[] md5 = withMd5 ? attributesMd5() : null;
    byte[] out = new byte[size(withMd5)];
    writeInto(out, 0, md5);
    return out;
  }

  /** The length of {@link #pack()}'s bytes, measured without making them. */
  public int packedSize() {
    return size(true);
  }

  /**
   * Writes {@link #pack()}'s bytes into {@code dst} at {@code offset} (room for {@link
   * #packedSize()} bytes): a send's content goes straight into its slab record, with no array of
   * its own on the way (each one is garbage a young collection pays for under load).
   */
  void packInto(byte[] dst, int offset) {
    writeInto(dst, offset, hasAttributes() ? attributesMd5() : null);
  }

  private boolean hasAttributes() {
    return attributes != null && !attributes.isEmpty();
  }

  /** The bytes the format takes, plus the attributes' MD5 when {@code withMd5} and there are any. */
  private int size(boolean withMd5) {
    int n = 2 + Utf8Field.size(body) + Utf8Field.size(senderId) + Utf8Field.sizeIfPresent(traceHeader)
        + Utf8Field.sizeIfPresent(groupId) + Utf8Field.sizeIfPresent(deduplicationId)
        + Utf8Field.sizeIfPresent(deadLetterSourceArn);
    if (hasAttributes()) {
      n += Utf8Field.varintSize(attributes.size());
      for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
        MessageAttributeValue v = e.getValue();
        n += Utf8Field.size(e.getKey()) + Utf8Field.size(v.dataType()) + 1
            + (v.binaryValue() != null ? Utf8Field.size(v.binaryValue()) : Utf8Field.size(v.stringValue()));
      }
      n += withMd5 ? MD5_BYTES : 0;
    }
    return n;
  }

  private void writeInto(byte[] dst, int offset, byte[] md5) {
    boolean hasAttributes = hasAttributes();
    int present = (traceHeader != null ? TRACE : 0) | (groupId != null ? GROUP : 0)
        | (deduplicationId != null ? DEDUP : 0) | (deadLetterSourceArn != null ? DLQ : 0)
        | (hasAttributes ? ATTRIBUTES : 0);
    int pos = offset;
    dst[pos++] = VERSION;
    dst[pos++] = (byte) present;
    pos = Utf8Field.put(dst, pos, body);
    pos = Utf8Field.put(dst, pos, senderId);
    if (traceHeader != null) {
      pos = Utf8Field.put(dst, pos, traceHeader);
    }
    if (groupId != null) {
      pos = Utf8Field.put(dst, pos, groupId);
    }
    if (deduplicationId != null) {
      pos = Utf8Field.put(dst, pos, deduplicationId);
    }
    if (deadLetterSourceArn != null) {
      pos = Utf8Field.put(dst, pos, deadLetterSourceArn);
    }
    if (hasAttributes) {
      pos = Utf8Field.putVarint(dst, pos, attributes.size());
      for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
        MessageAttributeValue v = e.getValue();
        pos = Utf8Field.put(dst, pos, e.getKey());
        pos = Utf8Field.put(dst, pos, v.dataType());
        if (v.binaryValue() != null) {
          dst[pos++] = 1;
          pos = Utf8Field.put(dst, pos, v.binaryValue());
        } else {
          dst[pos++] = 0;
          pos = Utf8Field.put(dst, pos, v.stringValue());
        }
      }
      if (md5 != null) {
        System.arraycopy(md5, 0, dst, pos, md5.length);
      }
    }
  }

  /** Reads within [pos, end): a length running past the end is a corrupt value, not a neighbour's bytes. */
  private static final class Reader {
    private final byte[] buf;
    private final int end;
    private int pos;

    Reader(byte[] buf, int offset, int end) {
      this.buf = buf;
      this.pos = offset;
      this.end = end;
    }

    int read() {
      if (pos >= end) {
        throw new IllegalStateException("message content ends early");
      }
      return buf[pos++] & 0xFF;
    }

    int varint() {
      int value = 0;
      for (int shift = 0; ; shift += 7) {
        int b = read();
        value |= (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
    }

    byte[] bytes() {
      int n = take();
      return Arrays.copyOfRange(buf, pos - n, pos);
    }

    String string() {
      int n = take();
      return new String(buf, pos - n, n, StandardCharsets.UTF_8);
    }

    private int take() {
      int n = varint();
      if (n < 0 || n > end - pos) {
        throw new IllegalStateException("message content ends early");
      }
      pos += n;
      return n;
    }
  }
}
