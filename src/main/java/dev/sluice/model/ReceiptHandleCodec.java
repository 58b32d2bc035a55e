package dev.sluice.model;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Receipt handles: opaque, new on every receive, and unforgeable in practice. A handle carries the
 * message's key within its queue and the receive it came from, sealed with an HMAC over the queue's
 * generation so that a handle from another queue, or from an earlier queue of the same name, or a
 * made-up one, is rejected as ReceiptHandleIsInvalid. One instance per shard: a {@link Mac} is not
 * thread-safe, so each shard event loop owns its own codec.
 */
public final class ReceiptHandleCodec {
  private static final byte VERSION = 1;
  private static final int PAYLOAD = 1 + 8 + 4;
  private static final int TAG = 12;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final Mac mac;

  public ReceiptHandleCodec(byte[] secret) {
    try {
      mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required by every JRE", e);
    }
  }

  /** What a valid handle names: a message of the queue and the receive that produced the handle. */
  public record Receipt(long messageKey, int receiptSequence) {}

  public String encode(long queueGeneration, long messageKey, int receiptSequence) {
    ByteBuffer b = ByteBuffer.allocate(PAYLOAD + TAG);
    b.put(VERSION).putLong(messageKey).putInt(receiptSequence);
    b.put(tag(queueGeneration, b.array()), 0, TAG);
    return ENCODER.encodeToString(b.array());
  }

  /** The receipt a handle names, or null when it is malformed or was not issued for this queue. */
  public Receipt decode(long queueGeneration, String handle) {
    if (handle == null || handle.length() != 34) {
      return null;
    }
    byte[] raw;
    try {
      raw = DECODER.decode(handle);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (raw.length != PAYLOAD + TAG || raw[0] != VERSION) {
      return null;
    }
    byte[] expected = tag(queueGeneration, raw);
    byte[] actual = new byte[TAG];
    System.arraycopy(raw, PAYLOAD, actual, 0, TAG);
    byte[] expectedTag = new byte[TAG];
    System.arraycopy(expected, 0, expectedTag, 0, TAG);
    if (!MessageDigest.isEqual(expectedTag, actual)) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(raw, 1, 12);
    return new Receipt(b.getLong(), b.getInt());
  }

  private byte[] tag(long queueGeneration, byte[] payloadAndMore) {
    mac.update(ByteBuffer.allocate(8).putLong(queueGeneration).array());
    mac.update(payloadAndMore, 0, PAYLOAD);
    return mac.doFinal();
  }
}
