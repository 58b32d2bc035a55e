package dev.sluice.protocol;

import io.vertx.core.http.HttpHeaders;

/**
 * HTTP header names and fixed values used on every request, pre-encoded once: Vert.x looks up and
 * writes such names without re-hashing or re-encoding them per request.
 */
public final class Headers {
  private Headers() {}

  public static final CharSequence X_AMZ_TARGET = HttpHeaders.createOptimized("x-amz-target");
  public static final CharSequence CONTENT_TYPE = HttpHeaders.createOptimized("content-type");
  public static final CharSequence CONTENT_LENGTH = HttpHeaders.createOptimized("content-length");
  public static final CharSequence AUTHORIZATION = HttpHeaders.createOptimized("authorization");
  public static final CharSequence HOST = HttpHeaders.createOptimized("host");
  public static final CharSequence X_AMZN_TRACE_ID = HttpHeaders.createOptimized("x-amzn-trace-id");
  public static final CharSequence X_AMZN_REQUEST_ID = HttpHeaders.createOptimized("x-amzn-RequestId");
  public static final CharSequence X_AMZN_QUERY_ERROR = HttpHeaders.createOptimized("x-amzn-query-error");

  public static final String AMZ_JSON_1_0 = "application/x-amz-json-1.0";
  public static final CharSequence AMZ_JSON_1_0_VALUE = HttpHeaders.createOptimized(AMZ_JSON_1_0);
  public static final CharSequence TEXT_XML_VALUE = HttpHeaders.createOptimized("text/xml");
}
