package dev.sluice.auth;

import java.util.List;
import java.util.Map;

/**
 * The credential scope of a SigV4 signature, {@code AKID/yyyyMMdd/region/service/aws4_request}, as
 * the request carries it: in its Authorization header ({@code Credential=...}) or, presigned, in
 * the {@code X-Amz-Credential} query parameter. Read whether or not authentication is on: a
 * request acts in the region it was signed for. Pure.
 */
public record CredentialScope(String accessKeyId, String date, String region, String service) {
  /** The scope of {@code credential}, or null when it is not five slash-separated parts ending in aws4_request. */
  static CredentialScope parse(String credential) {
    if (credential == null) {
      return null;
    }
    String[] parts = credential.split("/", -1);
    if (parts.length != 5 || !SigV4.TERMINATOR.equals(parts[4]) || parts[0].isEmpty()) {
      return null;
    }
    return new CredentialScope(parts[0], parts[1], parts[2], parts[3]);
  }

  /** The scope a request is signed with, or null when it carries no readable one (unsigned). */
  public static CredentialScope of(SignedRequest r) {
    List<String> authorization = r.headers("authorization");
    if (!authorization.isEmpty()) {
      return parse(fromAuthorization(authorization.get(0)));
    }
    String query = r.rawQuery();
    if (query == null || !query.contains("X-Amz-Credential")) {
      return null;
    }
    try {
      Map<String, String> parameters = SigV4.queryParameters(query);
      return parse(parameters.get("X-Amz-Credential"));
    } catch (IllegalArgumentException badEscape) {
      return null; // not a readable signature: the request counts as unsigned
    }
  }

  /** The value of {@code Credential=} in an Authorization header, or null. */
  static String fromAuthorization(String authorization) {
    int at = authorization.indexOf("Credential=");
    if (at < 0) {
      return null;
    }
    int start = at + "Credential=".length();
    int end = authorization.indexOf(',', start);
    return authorization.substring(start, end < 0 ? authorization.length() : end).trim();
  }
}
