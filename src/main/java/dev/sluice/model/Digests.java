package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The digests SQS clients verify (the SQS message metadata guide) and the SHA-256 used for content-based
 * deduplication. Stateless; MessageDigest instances are per thread.
 */
public final class Digests {
  private Digests() {}

  private static final HexFormat HEX = HexFormat.of();
  private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> digest("MD5"));
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(() -> digest("SHA-256"));

  private static final byte STRING_TRANSPORT = 1;
  private static final byte BINARY_TRANSPORT = 2;

  public static byte[] md5(String text) {
    return MD5.get().digest(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The MD5 of {@code length} bytes of {@code buf} at {@code offset}. */
  public static byte[] md5(byte[] buf, int offset, int length) {
    MessageDigest d = MD5.get();
    d.update(buf, offset, length);
    return d.digest();
  }

  public static String md5Hex(String text) {
    return HEX.formatHex(md5(text));
  }

  public static String sha256Hex(String text) {
    return HEX.formatHex(SHA256.get().digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * MD5OfMessageAttributes: names sorted (String order, as the Java SDK does), each as
   * length-prefixed name, length-prefixed DataType, a transport byte and the length-prefixed value;
   * lengths 4-byte big-endian. Null for an empty map: SQS then omits the member.
   */
  public static String md5OfAttributes(Map<String, MessageAttributeValue> attributes) {
    byte[] md5 = md5OfAttributesBytes(attributes);
    return md5 == null ? null : HEX.formatHex(md5);
  }

  /** The same digest as its 16 bytes (what a packed content keeps), or null for an empty map. */
  public static byte[] md5OfAttributesBytes(Map<String, MessageAttributeValue> attributes) {
    if (attributes == null || attributes.isEmpty()) {
      return null;
    }
    Map<String, MessageAttributeValue> sorted =
        attributes instanceof TreeMap<String, MessageAttributeValue> t && t.comparator() == null
            ? attributes
            : new TreeMap<>(attributes);
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    for (Map.Entry<String, MessageAttributeValue> e : sorted.entrySet()) {
      MessageAttributeValue v = e.getValue();
      writeLengthPrefixed(out, e.getKey().getBytes(StandardCharsets.UTF_8));
      writeLengthPrefixed(out, v.dataType().getBytes(StandardCharsets.UTF_8));
      if (v.isBinaryType()) {
        out.write(BINARY_TRANSPORT);
        writeLengthPrefixed(out, v.binaryValue() == null ? new byte[0] : v.binaryValue());
      } else {
        out.write(STRING_TRANSPORT);
        String s = v.stringValue() == null ? "" : v.stringValue();
        writeLengthPrefixed(out, s.getBytes(StandardCharsets.UTF_8));
      }
    }
    return MD5.get().digest(out.toByteArray());
  }

  private static void writeLengthPrefixed(ByteArrayOutputStream out, byte[] bytes) {
    int n = bytes.length;
    out.write(n >>> 24);
    out.write(n >>> 16);
    out.write(n >>> 8);
    out.write(n);
    out.write(bytes, 0, n);
  }

  private static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is required by every JRE", e);
    }
  }
}
