package dev.sluice.triggers;

import dev.sluice.api.triggers.LambdaException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where a trigger posts and how (design/triggers.md §2.3: {@code FunctionName} is the target's URL,
 * {@code TargetConfig} Sluice's settings of it, as Lambda owns the function and has none): an
 * absolute http or https URL with a host, at most 2,048 characters, without user info (credentials
 * go in a header) or fragment; the protocol (the Lambda Invoke path, which the runtime interface
 * emulator serves, or any other HTTP URL); the whole exchange's timeout, 1-900 seconds (Lambda's
 * function timeouts), 30 by default; at most 20 headers of 8 KiB in all, never one the request's
 * framing owns; whether TLS is verified; and how many requests may be open at once, one by default
 * for the emulator (it takes one invoke at a time) and unbounded (the trigger's concurrency) for
 * others. Immutable.
 *
 * @param maxConcurrentRequests 0 for no bound of its own
 */
public record TargetSettings(String url, InvokeOutcome.Protocol protocol, int timeoutSeconds,
    Map<String, String> headers, boolean verifyTls, int maxConcurrentRequests) {

  static final int MAX_URL_LENGTH = 2_048;
  static final int DEFAULT_TIMEOUT_SECONDS = 30;
  static final int MAX_TIMEOUT_SECONDS = 900;
  static final int MAX_HEADERS = 20;
  static final int MAX_HEADER_BYTES = 8_192;
  static final int MAX_CONCURRENT_REQUESTS = 1_000;
  /** Headers the request's framing or its hop owns, which a target's settings may not set. */
  static final Set<String> RESERVED_HEADERS = Set.of("host", "content-length", "content-type", "transfer-encoding",
      "connection", "upgrade", "te", "trailer", "expect", "keep-alive");

  /**
   * The settings of a request (null: not given, the default); throws Lambda's
   * InvalidParameterValueException naming the field refused.
   */
  public static TargetSettings check(String url, String protocol, Integer timeoutSeconds, Map<String, String> headers,
      Boolean verifyTls, Integer maxConcurrentRequests) {
    URI uri = url(url);
    InvokeOutcome.Protocol p = protocol == null ? InvokeOutcome.protocolOf(uri.getPath()) : switch (protocol) {
      case "lambda" -> InvokeOutcome.Protocol.LAMBDA;
      case "http" -> InvokeOutcome.Protocol.HTTP;
      default -> throw LambdaException.invalidValue("TargetConfig.Protocol must be lambda or http.");
    };
    int timeout = timeoutSeconds == null ? DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    if (timeout < 1 || timeout > MAX_TIMEOUT_SECONDS) {
      throw LambdaException.invalidValue("TargetConfig.TimeoutSeconds must be from 1 to " + MAX_TIMEOUT_SECONDS + ".");
    }
    int concurrent = maxConcurrentRequests != null ? maxConcurrentRequests : p == InvokeOutcome.Protocol.LAMBDA ? 1 : 0;
    if (maxConcurrentRequests != null && (concurrent < 1 || concurrent > MAX_CONCURRENT_REQUESTS)) {
      throw LambdaException.invalidValue("TargetConfig.MaxConcurrentRequests must be from 1 to "
          + MAX_CONCURRENT_REQUESTS + ".");
    }
    return new TargetSettings(url, p, timeout, headers(headers), verifyTls == null || verifyTls, concurrent);
  }

  private static URI url(String url) {
    URI uri = null;
    try {
      uri = url == null || url.length() > MAX_URL_LENGTH ? null : new URI(url);
    } catch (URISyntaxException e) {
      // refused below
    }
    String scheme = uri == null || uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getHost().isEmpty()) {
      throw LambdaException.invalidValue("FunctionName must be an absolute http or https URL with a host, of at most "
          + MAX_URL_LENGTH + " characters.");
    }
    if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
      throw LambdaException.invalidValue("FunctionName may have no user info and no fragment: give credentials in"
          + " TargetConfig.Headers.");
    }
    return uri;
  }

  private static Map<String, String> headers(Map<String, String> given) {
    if (given == null || given.isEmpty()) {
      return Map.of();
    }
    if (given.size() > MAX_HEADERS) {
      throw LambdaException.invalidValue("TargetConfig.Headers may hold at most " + MAX_HEADERS + " headers.");
    }
    int bytes = 0;
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : given.entrySet()) {
      String name = e.getKey();
      String value = e.getValue() == null ? "" : e.getValue();
      if (name == null || name.isEmpty() || !name.chars().allMatch(TargetSettings::isTokenChar)) {
        throw LambdaException.invalidValue("TargetConfig.Headers: '" + name + "' is not a header name.");
      }
      String lower = name.toLowerCase(Locale.ROOT);
      if (RESERVED_HEADERS.contains(lower) || lower.startsWith("proxy-")) {
        throw LambdaException.invalidValue("TargetConfig.Headers: " + name + " is set by Sluice, not by a trigger.");
      }
      if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
        throw LambdaException.invalidValue("TargetConfig.Headers: the value of " + name + " has a line break.");
      }
      bytes += name.length() + value.getBytes(StandardCharsets.UTF_8).length;
      out.put(name, value);
    }
    if (bytes > MAX_HEADER_BYTES) {
      throw LambdaException.invalidValue("TargetConfig.Headers may hold at most " + MAX_HEADER_BYTES + " bytes.");
    }
    return Map.copyOf(out);
  }

  /** RFC 9110's tchar. */
  private static boolean isTokenChar(int c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }

  /** The check against the queue: a batch must be settled before its handles expire (AWS's text). */
  public void checkAgainstVisibility(int queueVisibilitySeconds) {
    if (queueVisibilitySeconds < timeoutSeconds) {
      throw LambdaException.invalidValue("Queue visibility timeout: " + queueVisibilitySeconds + " seconds is less than"
          + " Function timeout: " + timeoutSeconds + " seconds");
    }
  }
}
