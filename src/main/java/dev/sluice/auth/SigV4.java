package dev.sluice.auth;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The pieces of AWS Signature Version 4 (the documented algorithm): canonical request, string to
 * sign, signing key and signature. Pure functions; {@link SigV4Verifier} decides what they mean.
 */
final class SigV4 {
  static final String ALGORITHM = "AWS4-HMAC-SHA256";
  static final String TERMINATOR = "aws4_request";

  private SigV4() {}

  /**
   * The canonical request: method, canonical URI (each path segment encoded once more, as every
   * service but S3 does), canonical query (sorted, encoded, without {@code skipParameter}),
   * canonical headers, signed header names and the payload hash.
   */
  static String canonicalRequest(SignedRequest r, List<String> signedHeaders, String payloadHash,
      String skipParameter) {
    StringBuilder b = new StringBuilder(256);
    b.append(r.method()).append('\n').append(canonicalUri(r.rawPath())).append('\n')
        .append(canonicalQuery(r.rawQuery(), skipParameter)).append('\n');
    for (String name : signedHeaders) {
      b.append(name).append(':').append(headerValue(r.headers(name))).append('\n');
    }
    return b.append('\n').append(String.join(";", signedHeaders)).append('\n').append(payloadHash).toString();
  }

  static String canonicalUri(String rawPath) {
    if (rawPath == null || rawPath.isEmpty()) {
      return "/";
    }
    List<String> segments = new ArrayList<>();
    for (String segment : rawPath.split("/", -1)) {
      segments.add(encode(segment));
    }
    return String.join("/", segments);
  }

  static String canonicalQuery(String rawQuery, String skipParameter) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    List<String[]> pairs = new ArrayList<>();
    for (String part : rawQuery.split("&")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      String name = decode(eq < 0 ? part : part.substring(0, eq));
      if (name.equals(skipParameter)) {
        continue;
      }
      pairs.add(new String[] {encode(name), encode(eq < 0 ? "" : decode(part.substring(eq + 1)))});
    }
    pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
    StringBuilder b = new StringBuilder(rawQuery.length() + 16);
    for (String[] p : pairs) {
      if (b.length() > 0) {
        b.append('&');
      }
      b.append(p[0]).append('=').append(p[1]);
    }
    return b.toString();
  }

  /** Values joined by commas, each trimmed, inner runs of spaces made one. */
  private static String headerValue(List<String> values) {
    StringBuilder b = new StringBuilder();
    for (String v : values) {
      if (b.length() > 0) {
        b.append(',');
      }
      b.append(v.trim().replaceAll(" +", " "));
    }
    return b.toString();
  }

  static String stringToSign(String amzDate, String scope, String canonicalRequest) {
    return ALGORITHM + '\n' + amzDate + '\n' + scope + '\n' + hex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
  }

  static byte[] signingKey(String secret, String date, String region, String service) {
    byte[] k = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
    k = hmac(k, region);
    k = hmac(k, service);
    return hmac(k, TERMINATOR);
  }

  static String signature(byte[] signingKey, String stringToSign) {
    return hex(hmac(signingKey, stringToSign));
  }

  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("every JVM has HmacSHA256", e);
    }
  }

  /** RFC 3986 encoding: everything but unreserved characters as %XX, upper-case hex. */
  static String encode(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    StringBuilder b = new StringBuilder(bytes.length + 8);
    for (byte x : bytes) {
      int c = x & 0xff;
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '.' || c == '~') {
        b.append((char) c);
      } else {
        b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return b.toString();
  }

  /** Percent-decoding of a query component ('+' is a space, as form encoding has it). */
  static String decode(String s) {
    return java.net.URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  /** Parameters of a raw query string, decoded; the first value of a repeated name wins. */
  static Map<String, String> queryParameters(String rawQuery) {
    Map<String, String> out = new java.util.HashMap<>();
    if (rawQuery != null) {
      for (String part : rawQuery.split("&")) {
        int eq = part.indexOf('=');
        if (!part.isEmpty()) {
          out.putIfAbsent(decode(eq < 0 ? part : part.substring(0, eq)), eq < 0 ? "" : decode(part.substring(eq + 1)));
        }
      }
    }
    return out;
  }
}
