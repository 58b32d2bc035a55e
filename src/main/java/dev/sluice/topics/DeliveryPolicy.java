package dev.sluice.topics;

import dev.sluice.model.JsonText;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * How an HTTP/HTTPS subscription is retried and throttled, and the Content-Type it is sent with
 * (SNS Developer Guide: Amazon SNS message delivery retries, "Creating an HTTP/S delivery policy"):
 * the subscription's {@code DeliveryPolicy} over the topic's {@code http} section (unless that
 * section disables subscription overrides) over SNS's default, three retries 20 seconds apart.
 *
 * <p>A retry falls in one of four phases, in order: immediate ({@code numNoDelayRetries}, no
 * delay), pre-backoff ({@code numMinDelayRetries}, {@code minDelayTarget} apart), backoff (the
 * retries left, their delays rising from {@code minDelayTarget} to {@code maxDelayTarget} by the
 * backoff function) and post-backoff ({@code numMaxDelayRetries}, {@code maxDelayTarget} apart). AWS
 * documents the four backoff functions only as a figure: here linear rises evenly, arithmetic as the
 * square of the progress, geometric as its square root (fast, then flattening) and exponential as
 * 2^(8p) - 1 scaled (slow, then steep), each ending at the maximum. AWS applies jitter; a delay
 * here is jittered by up to 10% either way. Immutable.
 */
public record DeliveryPolicy(int numRetries, int numNoDelayRetries, int numMinDelayRetries, int numMaxDelayRetries,
    int minDelayTarget, int maxDelayTarget, String backoffFunction, int maxReceivesPerSecond,
    String headerContentType) {

  /** SNS's limit on the time a policy may spend retrying, in seconds (a hard limit at AWS). */
  static final int MAX_TOTAL_SECONDS = 3600;
  static final int MAX_RETRIES = 100;
  static final Set<String> BACKOFF_FUNCTIONS = Set.of("linear", "arithmetic", "geometric", "exponential");
  static final Set<String> CONTENT_TYPES = Set.of("text/plain", "application/json", "application/xml");
  static final String DEFAULT_CONTENT_TYPE = "text/plain; charset=UTF-8";
  /** No throttle: as many deliveries a second as the endpoint takes. */
  static final int UNTHROTTLED = 0;

  public static final DeliveryPolicy DEFAULT =
      new DeliveryPolicy(3, 0, 0, 0, 20, 20, "linear", UNTHROTTLED, DEFAULT_CONTENT_TYPE);

  /**
   * The policy a subscription follows: {@code topicPolicy} (the topic's DeliveryPolicy, or null) and
   * {@code subscriptionPolicy} (the subscription's, or null), both already checked.
   */
  public static DeliveryPolicy effective(String topicPolicy, String subscriptionPolicy) {
    Map<String, Object> retry = new LinkedHashMap<>();
    Map<String, Object> throttle = new LinkedHashMap<>();
    Map<String, Object> request = new LinkedHashMap<>();
    boolean overridable = true;
    Map<String, Object> topic = topicPolicy == null ? null : JsonText.parseObject(topicPolicy);
    if (topic != null && topic.get("http") instanceof Map<?, ?> http) {
      putAll(retry, http.get("defaultHealthyRetryPolicy"));
      putAll(throttle, http.get("defaultThrottlePolicy"));
      putAll(request, http.get("defaultRequestPolicy"));
      overridable = !Boolean.TRUE.equals(http.get("disableSubscriptionOverrides"));
    }
    Map<String, Object> sub = subscriptionPolicy == null ? null : JsonText.parseObject(subscriptionPolicy);
    if (sub != null && overridable) {
      // A section the subscription sets replaces the topic's section whole, as AWS replaces it.
      replaceIfSet(retry, sub.get("healthyRetryPolicy"));
      replaceIfSet(throttle, sub.get("throttlePolicy"));
      replaceIfSet(request, sub.get("requestPolicy"));
    }
    return of(retry, throttle, request);
  }

  /**
   * What is wrong with a subscription's DeliveryPolicy, or null when it may be set.
   */
  public static String problemOfSubscriptionPolicy(String json) {
    Map<String, Object> p = JsonText.parseObject(json);
    if (p == null) {
      return "failed to parse JSON.";
    }
    for (String key : p.keySet()) {
      if (!Set.of("healthyRetryPolicy", "sicklyRetryPolicy", "throttlePolicy", "requestPolicy", "guaranteed")
          .contains(key)) {
        return "Unsupported property: " + key;
      }
    }
    return problemOf(p.get("healthyRetryPolicy"), p.get("throttlePolicy"), p.get("requestPolicy"));
  }

  /** What is wrong with a topic's DeliveryPolicy ({@code {"http": {...}}}), or null. */
  public static String problemOfTopicPolicy(String json) {
    Map<String, Object> p = JsonText.parseObject(json);
    if (p == null) {
      return "failed to parse JSON.";
    }
    Object http = p.get("http");
    if (http == null) {
      return null;
    }
    if (!(http instanceof Map<?, ?> h)) {
      return "http must be an object";
    }
    Object disable = h.get("disableSubscriptionOverrides");
    if (disable != null && !(disable instanceof Boolean)) {
      return "disableSubscriptionOverrides must be true or false";
    }
    return problemOf(h.get("defaultHealthyRetryPolicy"), h.get("defaultThrottlePolicy"),
        h.get("defaultRequestPolicy"));
  }

  private static String problemOf(Object retry, Object throttle, Object request) {
    try {
      Map<String, Object> r = new LinkedHashMap<>();
      Map<String, Object> t = new LinkedHashMap<>();
      Map<String, Object> q = new LinkedHashMap<>();
      putChecked(r, retry, "healthyRetryPolicy");
      putChecked(t, throttle, "throttlePolicy");
      putChecked(q, request, "requestPolicy");
      of(r, t, q);
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  /** The delay before retry {@code retry} (1 to numRetries), jittered by {@code jitter} in [-1, 1] times 10%. */
  public long delayMillis(int retry, double jitter) {
    double seconds = baseDelaySeconds(retry);
    return Math.max(0, Math.round(seconds * 1000 * (1 + 0.1 * jitter)));
  }

  /** The delay before {@code retry} without jitter, in seconds. */
  double baseDelaySeconds(int retry) {
    if (retry <= numNoDelayRetries) {
      return 0;
    }
    if (retry <= numNoDelayRetries + numMinDelayRetries) {
      return minDelayTarget;
    }
    int backoff = backoffRetries();
    int i = retry - numNoDelayRetries - numMinDelayRetries;
    if (i <= backoff) {
      double progress = (double) i / backoff;
      double shaped = switch (backoffFunction) {
        case "arithmetic" -> progress * progress;
        case "geometric" -> Math.sqrt(progress);
        case "exponential" -> (Math.pow(2, 8 * progress) - 1) / 255;
        default -> progress;
      };
      return minDelayTarget + (maxDelayTarget - minDelayTarget) * shaped;
    }
    return maxDelayTarget;
  }

  private int backoffRetries() {
    return Math.max(0, numRetries - numNoDelayRetries - numMinDelayRetries - numMaxDelayRetries);
  }

  /** The time every retry of this policy takes together, in seconds, jitter aside. */
  double totalSeconds() {
    double total = 0;
    for (int r = 1; r <= numRetries; r++) {
      total += baseDelaySeconds(r);
    }
    return total;
  }

  /** The subscription's EffectiveDeliveryPolicy as GetSubscriptionAttributes shows it (AWS's key set). */
  public String view() {
    Map<String, Object> retry = new LinkedHashMap<>();
    retry.put("minDelayTarget", minDelayTarget);
    retry.put("maxDelayTarget", maxDelayTarget);
    retry.put("numRetries", numRetries);
    retry.put("numMaxDelayRetries", numMaxDelayRetries);
    retry.put("numNoDelayRetries", numNoDelayRetries);
    retry.put("numMinDelayRetries", numMinDelayRetries);
    retry.put("backoffFunction", backoffFunction);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("healthyRetryPolicy", retry);
    out.put("sicklyRetryPolicy", null);
    out.put("throttlePolicy", maxReceivesPerSecond == UNTHROTTLED ? null
        : Map.of("maxReceivesPerSecond", maxReceivesPerSecond));
    out.put("requestPolicy", Map.of("headerContentType", headerContentType));
    out.put("guaranteed", false);
    return JsonText.write(out);
  }

  private static DeliveryPolicy of(Map<String, Object> retry, Map<String, Object> throttle,
      Map<String, Object> request) {
    int min = integer(retry, "minDelayTarget", DEFAULT.minDelayTarget, 1, MAX_TOTAL_SECONDS);
    int max = integer(retry, "maxDelayTarget", DEFAULT.maxDelayTarget, 1, MAX_TOTAL_SECONDS);
    if (min > max) {
      throw new IllegalArgumentException("minDelayTarget must be less than or equal to maxDelayTarget");
    }
    int retries = integer(retry, "numRetries", DEFAULT.numRetries, 0, MAX_RETRIES);
    int noDelay = integer(retry, "numNoDelayRetries", 0, 0, MAX_RETRIES);
    int minRetries = integer(retry, "numMinDelayRetries", 0, 0, MAX_RETRIES);
    int maxRetries = integer(retry, "numMaxDelayRetries", 0, 0, MAX_RETRIES);
    if (noDelay + minRetries + maxRetries > retries) {
      throw new IllegalArgumentException("numRetries must be at least numNoDelayRetries + numMinDelayRetries"
          + " + numMaxDelayRetries");
    }
    Object function = retry.getOrDefault("backoffFunction", "linear");
    if (!(function instanceof String f) || !BACKOFF_FUNCTIONS.contains(f)) {
      throw new IllegalArgumentException("backoffFunction must be one of arithmetic, exponential, geometric,"
          + " linear");
    }
    int rate = throttle.get("maxReceivesPerSecond") == null ? UNTHROTTLED
        : integer(throttle, "maxReceivesPerSecond", UNTHROTTLED, 1, Integer.MAX_VALUE);
    Object type = request.getOrDefault("headerContentType", DEFAULT_CONTENT_TYPE);
    if (!(type instanceof String t) || !CONTENT_TYPES.contains(t.split(";", 2)[0].trim().toLowerCase())) {
      throw new IllegalArgumentException("headerContentType must be one of text/plain, application/json,"
          + " application/xml (with an optional charset)");
    }
    DeliveryPolicy p = new DeliveryPolicy(retries, noDelay, minRetries, maxRetries, min, max, f, rate, t);
    if (p.totalSeconds() > MAX_TOTAL_SECONDS) {
      throw new IllegalArgumentException("the total time of all retries must not exceed " + MAX_TOTAL_SECONDS
          + " seconds");
    }
    return p;
  }

  private static int integer(Map<String, Object> m, String name, int absent, int least, int most) {
    Object v = m.get(name);
    if (v == null) {
      return absent;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < least
        || n.doubleValue() > most) {
      throw new IllegalArgumentException(name + " must be an integer from " + least + " to " + most);
    }
    return n.intValue();
  }

  @SuppressWarnings("unchecked")
  private static void putAll(Map<String, Object> into, Object section) {
    if (section instanceof Map<?, ?> m) {
      into.putAll((Map<String, Object>) m);
    }
  }

  private static void replaceIfSet(Map<String, Object> into, Object section) {
    if (section instanceof Map<?, ?>) {
      into.clear();
      putAll(into, section);
    }
  }

  private static void putChecked(Map<String, Object> into, Object section, String name) {
    if (section != null && !(section instanceof Map<?, ?>)) {
      throw new IllegalArgumentException(name + " must be an object");
    }
    putAll(into, section);
  }
}
