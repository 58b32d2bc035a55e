package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 with the cluster secret over an encoded frame, truncated to 16 bytes (design page
 * cluster.md, §2.8): 128 bits leave forging out of reach and save half the tag on every frame.
 * Safe on any thread, with a {@link Mac} of each thread's own: Vert.x encodes a frame on the
 * thread that writes it to the connection, which may be the sender's, and decodes it on the
 * thread of each consumer that reads its body, so the one codec instance is used by several.
 */
final class FrameMac {
  static final int TAG_BYTES = 16;
  private static final int CHUNK_BYTES = 4096;

  private final ThreadLocal<Mac> macs;

  FrameMac(byte[] secret) {
    if (secret.length == 0) {
      throw new IllegalArgumentException("the cluster secret is empty");
    }
    SecretKeySpec key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    newMac(key); // a key the platform refuses fails here, not on the first frame
    macs = ThreadLocal.withInitial(() -> newMac(key));
  }

  /** Appends the tag of {@code [from, length)}. */
  void append(Buffer buffer, int from) {
    buffer.appendBytes(tag(buffer, from, buffer.length()), 0, TAG_BYTES);
  }

  /** Whether the tag at {@code tagAt} is that of {@code [from, tagAt)}, compared in constant time. */
  boolean verify(Buffer buffer, int from, int tagAt) {
    byte[] expected = Arrays.copyOf(tag(buffer, from, tagAt), TAG_BYTES);
    return MessageDigest.isEqual(expected, buffer.getBytes(tagAt, tagAt + TAG_BYTES));
  }

  /** The full HMAC, fed in chunks so that a large frame is not copied whole first. */
  private byte[] tag(Buffer buffer, int from, int to) {
    Mac mac = macs.get();
    byte[] chunk = new byte[Math.min(CHUNK_BYTES, to - from)];
    for (int at = from; at < to; at += chunk.length) {
      int n = Math.min(chunk.length, to - at);
      buffer.getBytes(at, at + n, chunk, 0);
      mac.update(chunk, 0, n);
    }
    return mac.doFinal();
  }

  private static Mac newMac(SecretKeySpec key) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
