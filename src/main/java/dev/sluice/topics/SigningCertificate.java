package dev.sluice.topics;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The key SNS envelopes are signed with and the certificate that lets subscribers check them (SNS
 * Developer Guide: Verifying the signatures of Amazon SNS messages): an RSA key and a self-signed
 * X.509 v3 certificate for {@code CN=sns.amazonaws.com}, valid ten years. The JDK has no public
 * certificate builder, so the certificate's DER is written here (RFC 5280, section 4.1) and signed
 * with {@code SHA256withRSA}. Signature version 1 signs with SHA1withRSA, 2 with SHA256withRSA, both
 * base64, as SNS does. Immutable and thread-safe: signing makes a {@link Signature} per call.
 */
public final class SigningCertificate {
  static final String SUBJECT = "sns.amazonaws.com";
  static final long VALIDITY_MILLIS = 10L * 365 * 24 * 3600 * 1000;
  private static final byte[] SHA256_WITH_RSA = {0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01,
      0x0b};
  private static final byte[] COMMON_NAME = {0x55, 0x04, 0x03};

  private final PrivateKey key;
  private final byte[] der;

  private SigningCertificate(PrivateKey key, byte[] der) {
    this.key = key;
    this.der = der;
  }

  /** A new key of {@code bits} and its certificate, valid from {@code nowMillis}. */
  public static SigningCertificate generate(int bits, long nowMillis) {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(bits, new SecureRandom());
      KeyPair pair = g.generateKeyPair();
      byte[] serial = new byte[16];
      new SecureRandom().nextBytes(serial);
      serial[0] &= 0x7f; // a positive INTEGER
      byte[] name = sequence(set(sequence(der(0x06, COMMON_NAME), der(0x0c, SUBJECT.getBytes(StandardCharsets.UTF_8)))));
      byte[] algorithm = sequence(der(0x06, SHA256_WITH_RSA), new byte[] {0x05, 0x00});
      byte[] tbs = sequence(
          der(0xa0, der(0x02, new byte[] {2})),
          der(0x02, serial),
          algorithm,
          name,
          sequence(time(nowMillis - 60_000), time(nowMillis + VALIDITY_MILLIS)),
          name,
          pair.getPublic().getEncoded());
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initSign(pair.getPrivate());
      s.update(tbs);
      byte[] signature = s.sign();
      byte[] bits0 = new byte[signature.length + 1]; // BIT STRING: no unused bits
      System.arraycopy(signature, 0, bits0, 1, signature.length);
      return new SigningCertificate(pair.getPrivate(), sequence(tbs, algorithm, der(0x03, bits0)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot make an RSA signing key", e);
    }
  }

  /** A key and certificate made before ({@link #keyBytes}, {@link #der}), as PostgreSQL kept them. */
  public static SigningCertificate of(byte[] pkcs8Key, byte[] der) {
    try {
      PrivateKey key = java.security.KeyFactory.getInstance("RSA")
          .generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(pkcs8Key));
      return new SigningCertificate(key, der.clone());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an RSA key in PKCS#8", e);
    }
  }

  /** The private key, PKCS#8-encoded: a secret, kept where the receipt-handle key is. */
  public byte[] keyBytes() {
    return key.getEncoded();
  }

  /** The certificate, DER-encoded. */
  public byte[] der() {
    return der.clone();
  }

  /** The certificate as PEM, as SNS serves it at SigningCertURL. */
  public String pem() {
    return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der) + "\n-----END CERTIFICATE-----\n";
  }

  /** The file name the certificate is served under: named after its content, so a URL never changes meaning. */
  public String fileName() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(der);
      return "SimpleNotificationService-" + HexFormat.of().formatHex(digest, 0, 16) + ".pem";
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code text} signed for SignatureVersion {@code version} ("1": SHA1withRSA, "2": SHA256withRSA), base64. */
  public String sign(String text, String version) {
    try {
      Signature s = Signature.getInstance("2".equals(version) ? "SHA256withRSA" : "SHA1withRSA");
      s.initSign(key);
      s.update(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign", e);
    }
  }

  /** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280, section 4.1.2.5). */
  private static byte[] time(long millis) {
    Instant t = Instant.ofEpochMilli(millis);
    boolean utc = t.atZone(ZoneOffset.UTC).getYear() < 2050;
    String text = DateTimeFormatter.ofPattern(utc ? "yyMMddHHmmss'Z'" : "yyyyMMddHHmmss'Z'")
        .withZone(ZoneOffset.UTC).format(t);
    return der(utc ? 0x17 : 0x18, text.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] sequence(byte[]... parts) {
    return der(0x30, concat(parts));
  }

  private static byte[] set(byte[]... parts) {
    return der(0x31, concat(parts));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** One DER element: tag, definite length, content. */
  private static byte[] der(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      byte[] len = BigInteger.valueOf(n).toByteArray();
      int skip = len[0] == 0 ? 1 : 0;
      out.write(0x80 | (len.length - skip));
      out.write(len, skip, len.length - skip);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }
}
