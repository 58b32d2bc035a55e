package dev.sluice.persistence;

import dev.sluice.api.MessageAttributeValue;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a message was sent with and never changes (body, message attributes, trace header, sender,
 * FIFO group and deduplication ids, dead-letter source), as the one {@code content} bytea of its
 * {@code sluice_messages} row. One packed column instead of eight: each column of an array insert
 * costs the client an array to encode and PostgreSQL one to decode, and this column is only ever
 * read back whole, at start-up.
 *
 * <p>Format, version 1: a version byte; a presence byte (bit 0 trace header, 1 group id, 2
 * deduplication id, 3 dead-letter source ARN, 4 attributes); the body; the sender id; the present
 * optional strings in that order; then, if present, the attribute count and per attribute its name,
 * data type, a kind byte (0 string, 1 binary) and its value. Strings and byte values are a varint
 * length then their bytes, strings in UTF-8.
 *
 * <p>Test code only. The format's home is {@code model.PackedContent}: the server packs contents
 * into its slab and passes the column as bytes (design/tails.md step 2), so the main code needs no
 * second codec. This independent copy stays in the tests as the reference the golden tests compare
 * {@code PackedContent} with ({@code PackedContentTest}), and as what the persistence tests and ITs
 * write and read rows with: they are in {@code persistence} or below the model's layer and do not
 * import the model.
 */
public record MessageContent(
    String body,
    Map<String, MessageAttributeValue> attributes,
    String traceHeader,
    String senderId,
    String groupId,
    String deduplicationId,
    String deadLetterSourceArn) {

  static final byte VERSION = 1;
  private static final int TRACE = 1;
  private static final int GROUP = 2;
  private static final int DEDUP = 4;
  private static final int DLQ = 8;
  private static final int ATTRIBUTES = 16;

  public byte[] encode() {
    Writer w = new Writer(body.length() + 64);
    int present = (traceHeader != null ? TRACE : 0) | (groupId != null ? GROUP : 0)
        | (deduplicationId != null ? DEDUP : 0) | (deadLetterSourceArn != null ? DLQ : 0)
        | (attributes != null && !attributes.isEmpty() ? ATTRIBUTES : 0);
    w.write(VERSION);
    w.write(present);
    w.string(body);
    w.string(senderId);
    if (traceHeader != null) {
      w.string(traceHeader);
    }
    if (groupId != null) {
      w.string(groupId);
    }
    if (deduplicationId != null) {
      w.string(deduplicationId);
    }
    if (deadLetterSourceArn != null) {
      w.string(deadLetterSourceArn);
    }
    if ((present & ATTRIBUTES) != 0) {
      w.varint(attributes.size());
      attributes.forEach((name, v) -> {
        w.string(name);
        w.string(v.dataType());
        if (v.binaryValue() != null) {
          w.write(1);
          w.bytes(v.binaryValue());
        } else {
          w.write(0);
          w.string(v.stringValue());
        }
      });
    }
    return w.toBytes();
  }

  /** The content a column value holds; attributes sorted by name, null when there were none. */
  public static MessageContent decode(byte[] column) {
    Reader r = new Reader(column);
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
    return new MessageContent(body, attributes, trace, sender, group, dedup, dlq);
  }

  private static final class Writer {
    private byte[] buf;
    private int size;

    Writer(int capacity) {
      buf = new byte[capacity];
    }

    void write(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    void varint(int value) {
      while ((value & ~0x7F) != 0) {
        write((value & 0x7F) | 0x80);
        value >>>= 7;
      }
      write(value);
    }

    void bytes(byte[] b) {
      varint(b.length);
      ensure(b.length);
      System.arraycopy(b, 0, buf, size, b.length);
      size += b.length;
    }

    void string(String s) {
      bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }

    byte[] toBytes() {
      return size == buf.length ? buf : Arrays.copyOf(buf, size);
    }
  }

  private static final class Reader {
    private final byte[] buf;
    private int pos;

    Reader(byte[] buf) {
      this.buf = buf;
    }

    int read() {
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
      int n = varint();
      byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return out;
    }

    String string() {
      int n = varint();
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }
  }
}
