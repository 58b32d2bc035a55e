package dev.sluice.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A queue's redelivery backoff policy, a Sluice extension and not an SQS attribute: a message whose
 * visibility timeout ran out without a delete becomes visible again only after a wait drawn with
 * "full jitter" (AWS Architecture Blog, "Exponential Backoff And Jitter") from
 * {@code [0, min(max, base × 2^(receiveCount−1))]}, so that a message that keeps failing is retried
 * later and later instead of every visibility timeout.
 *
 * <p>The lower bound is 0, as in full jitter: the visibility timeout has already spaced the retry
 * out, so a draw of 0 only means "as without a policy", never sooner; a floor above 0 would bunch
 * the retries of messages that failed together again, which is what the jitter is for.
 *
 * <p>Whole seconds: {@code baseSeconds} at least {@value #BASE_SECONDS_MIN} (a base of 0 would be no
 * policy), {@code maxSeconds} from {@code baseSeconds} to {@value #MAX_SECONDS_MAX} (12 hours, SQS's
 * longest visibility timeout: a longer wait would keep a message out of reach for a large part of a
 * retention period, which is at most 14 days).
 */
public record RedeliveryBackoff(int baseSeconds, int maxSeconds) {
  public static final int BASE_SECONDS_MIN = 1;
  public static final int MAX_SECONDS_MAX = 43_200;

  public RedeliveryBackoff {
    String problem = problem(baseSeconds, maxSeconds);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
  }

  /** Why {@code baseSeconds} and {@code maxSeconds} make no policy, or null when they do. */
  public static String problem(long baseSeconds, long maxSeconds) {
    if (baseSeconds < BASE_SECONDS_MIN || baseSeconds > MAX_SECONDS_MAX) {
      return "baseSeconds must be from " + BASE_SECONDS_MIN + " to " + MAX_SECONDS_MAX + ", not " + baseSeconds;
    }
    if (maxSeconds < baseSeconds || maxSeconds > MAX_SECONDS_MAX) {
      return "maxSeconds must be from baseSeconds (" + baseSeconds + ") to " + MAX_SECONDS_MAX + ", not "
          + maxSeconds;
    }
    return null;
  }

  /**
   * The policy a JSON object {@code {"baseSeconds": n, "maxSeconds": m}} gives (both whole numbers,
   * nothing else); IllegalArgumentException saying why when it gives none.
   */
  public static RedeliveryBackoff fromJson(String text) {
    Map<String, Object> json = text == null ? null : JsonText.parseObject(text);
    if (json == null) {
      throw new IllegalArgumentException("a redelivery backoff is a JSON object {\"baseSeconds\":n,\"maxSeconds\":m}");
    }
    for (String key : json.keySet()) {
      if (!key.equals("baseSeconds") && !key.equals("maxSeconds")) {
        throw new IllegalArgumentException("unknown field " + key + ": only baseSeconds and maxSeconds");
      }
    }
    return new RedeliveryBackoff(wholeSeconds(json.get("baseSeconds"), "baseSeconds"),
        wholeSeconds(json.get("maxSeconds"), "maxSeconds"));
  }

  private static int wholeSeconds(Object value, String name) {
    if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
      throw new IllegalArgumentException(name + " must be a whole number of seconds");
    }
    double d = n.doubleValue();
    if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + " must be from " + BASE_SECONDS_MIN + " to " + MAX_SECONDS_MAX);
    }
    return (int) d;
  }

  /** The canonical JSON the admin API answers and the durable store keeps. */
  public String toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("baseSeconds", baseSeconds);
    m.put("maxSeconds", maxSeconds);
    return JsonText.write(m);
  }

  /** The longest wait after the {@code receiveCount}-th receive: {@code min(max, base × 2^(n−1))}, in ms. */
  public long ceilingMillis(int receiveCount) {
    int doublings = Math.max(0, receiveCount - 1);
    // Past 2^16 × base the ceiling is beyond 43200 s whatever the base: no overflow, same answer.
    long seconds = doublings >= 16 ? maxSeconds : Math.min(maxSeconds, (long) baseSeconds << doublings);
    return seconds * 1000L;
  }

  /** A wait drawn uniformly from {@code [0, ceilingMillis(receiveCount)]}, in ms (full jitter). */
  public long drawMillis(int receiveCount, RandomGenerator random) {
    return random.nextLong(ceilingMillis(receiveCount) + 1);
  }
}
