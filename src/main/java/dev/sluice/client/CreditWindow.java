package dev.sluice.client;

/**
 * The demand accounting of one subscription, without I/O: what the subscriber asked for and has not
 * received ({@code demand}, {@link Long#MAX_VALUE} for unbounded), the credits sent to the server and
 * not yet used by a push ({@code grant}), and the subscription's prefetch. It keeps
 * {@code 0 <= grant <= min(demand, prefetch)}, so every push it accepts was asked for, and every
 * credit it hands out is in {@code 1..prefetch}. While credit is still outstanding it tops up only
 * by at least {@link #minTopUp()}: under unbounded demand that is one credit frame per half a
 * prefetch of messages instead of one per message (measured: the per-message frame doubled the
 * server's CPU per push), with at least half the prefetch granted at all times. Owned by the
 * client's event loop.
 */
final class CreditWindow {
  private final int prefetch;
  private final int minTopUp;
  private long demand;
  private int grant;

  CreditWindow(int prefetch) {
    if (prefetch < 1) {
      throw new IllegalArgumentException("prefetch must be at least 1: " + prefetch);
    }
    this.prefetch = prefetch;
    this.minTopUp = Math.max(1, prefetch / 2);
  }

  /** Adds {@code n > 0} to the demand, saturating at {@link Long#MAX_VALUE} (Reactive Streams §3.17). */
  void request(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("request must be positive: " + n);
    }
    long sum = demand + n;
    demand = sum < 0 ? Long.MAX_VALUE : sum;
  }

  /**
   * The credits to send now so that the grant covers {@code min(demand, prefetch)}, already counted
   * in the grant; 0 when none are needed, or when fewer than {@link #minTopUp()} are while some are
   * still outstanding (a push to come will ask again).
   */
  int topUp() {
    int want = (int) Math.min(demand, prefetch) - grant;
    if (want <= 0 || (grant > 0 && want < minTopUp)) {
      return 0;
    }
    grant += want;
    return want;
  }

  /**
   * A message was pushed: uses one credit and one unit of demand. False, changing nothing, when no
   * credit was outstanding: the server pushed more than it was granted.
   */
  boolean onPush() {
    if (grant == 0) {
      return false;
    }
    grant--;
    if (demand != Long.MAX_VALUE) {
      demand--;
    }
    return true;
  }

  /** A new server subscription (after a reconnect or a resubscribe) starts with no grant. */
  void reset() {
    grant = 0;
  }

  long demand() {
    return demand;
  }

  int grant() {
    return grant;
  }

  /** The smallest top-up sent while credit is outstanding: half the prefetch, at least 1. */
  int minTopUp() {
    return minTopUp;
  }
}
