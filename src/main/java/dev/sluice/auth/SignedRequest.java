package dev.sluice.auth;

import java.util.List;

/** What SigV4 signs of an HTTP request, independent of the HTTP server. */
public interface SignedRequest {
  String method();

  /** The path as it came on the wire, still percent-encoded. */
  String rawPath();

  /** The query string as it came on the wire (without '?'), or null. */
  String rawQuery();

  /** Every value of a header, by lower-case name; empty when absent. */
  List<String> headers(String lowerCaseName);

  /** The request body (empty for GET). */
  byte[] body();
}
