package dev.sluice.client;

import java.time.Duration;
import java.util.Optional;

/**
 * How one subscription consumes: at most {@link #maxUnacknowledged()} messages unacknowledged at once
 * (the server's prefetch, 10 unless set), the visibility timeout of pushed messages (the queue's
 * unless set) and the region the queue is looked up in (the connection's unless set). Immutable:
 * each method returns a changed copy.
 */
public final class SubscribeOptions {
  private static final SubscribeOptions DEFAULTS = new SubscribeOptions(10, null, null);

  private final int maxUnacknowledged;
  private final Integer visibilitySeconds;
  private final String region;

  private SubscribeOptions(int maxUnacknowledged, Integer visibilitySeconds, String region) {
    this.maxUnacknowledged = maxUnacknowledged;
    this.visibilitySeconds = visibilitySeconds;
    this.region = region;
  }

  /** At most 10 unacknowledged, the queue's visibility timeout, the connection's region. */
  public static SubscribeOptions defaults() {
    return DEFAULTS;
  }

  /** The defaults with at most {@code n} unacknowledged messages (1 up to the server's push.maxPrefetch). */
  public static SubscribeOptions maxUnacknowledged(int n) {
    return DEFAULTS.withMaxUnacknowledged(n);
  }

  /** These options with at most {@code n} unacknowledged messages. */
  public SubscribeOptions withMaxUnacknowledged(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxUnacknowledged must be at least 1: " + n);
    }
    return new SubscribeOptions(n, visibilitySeconds, region);
  }

  /** Pushed messages stay invisible to others this long (1 s to 12 h, rounded up to whole seconds). */
  public SubscribeOptions visibilityTimeout(Duration timeout) {
    return new SubscribeOptions(maxUnacknowledged, Seconds.of(timeout, 1, "visibilityTimeout"), region);
  }

  /** The region the queue is in (one the server serves, sqs.regions). */
  public SubscribeOptions region(String region) {
    return new SubscribeOptions(maxUnacknowledged, visibilitySeconds, region);
  }

  public int maxUnacknowledged() {
    return maxUnacknowledged;
  }

  public Optional<Duration> visibilityTimeout() {
    return Optional.ofNullable(visibilitySeconds).map(Duration::ofSeconds);
  }

  public Optional<String> region() {
    return Optional.ofNullable(region);
  }
}
