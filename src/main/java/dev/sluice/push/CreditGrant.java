package dev.sluice.push;

/**
 * How many messages a queue subscription may ask its queue for next (src/site/markdown/push.md,
 * "Credits"). Pure accounting, without Vert.x or a clock; owned by its {@link QueueSubscription},
 * so by the push service's event loop.
 *
 * <p>Auto credit: a receive asks for every free slot ({@code prefetch − unacknowledged}), at most
 * {@link #MAX_BATCH}. Demand credit: no more than the grant either, which only {@code sluice.credit}
 * adds to and which is capped at {@code prefetch} (an add past it is clamped). One receive is out
 * at a time, and it may stay parked for seconds: what it asks for is reserved from the grant while
 * it is out, so that a credit arriving meanwhile is not spent twice, and what it did not push
 * (fewer messages than asked, or none when it failed) goes back to the grant when it answers. So
 * unacknowledged ≤ prefetch always, and in demand mode pushed ≤ granted.
 */
final class CreditGrant {
  /** The most one receive may ask for (ReceiveMessage's MaxNumberOfMessages). */
  static final int MAX_BATCH = 10;

  final int prefetch;
  /** Demand credit (granted by the client) rather than auto (every free slot). */
  final boolean demand;
  /** Demand: granted, not reserved by a receive, not pushed. */
  private int available;
  /** What the receive out now asked for; 0 while none is out. */
  private int reserved;

  private CreditGrant(int prefetch, boolean demand) {
    if (prefetch < 1) {
      throw new IllegalArgumentException("prefetch must be at least 1: " + prefetch);
    }
    this.prefetch = prefetch;
    this.demand = demand;
  }

  static CreditGrant auto(int prefetch) {
    return new CreditGrant(prefetch, false);
  }

  /** Starts with a grant of 0: nothing is received until the client grants credits. */
  static CreditGrant demand(int prefetch) {
    return new CreditGrant(prefetch, true);
  }

  /** Grants {@code credits} more (1 to prefetch, checked by the caller), clamped at prefetch in all. */
  void add(int credits) {
    if (!demand) {
      throw new IllegalStateException("an auto subscription is not granted credits");
    }
    available = Math.min(prefetch - reserved, available + credits);
  }

  /**
   * Reserves what the next receive may ask for while {@code unacknowledged} messages are held, and
   * answers it; 0 when nothing may be asked for now (then nothing is reserved).
   */
  int reserve(int unacknowledged) {
    if (reserved > 0) {
      throw new IllegalStateException("a receive is out already");
    }
    int n = Math.min(prefetch - unacknowledged, MAX_BATCH);
    if (demand) {
      n = Math.min(n, available);
    }
    if (n <= 0) {
      return 0;
    }
    reserved = n;
    if (demand) {
      available -= n;
    }
    return n;
  }

  /** The receive out answered and {@code pushed} of its messages were pushed; the rest is given back. */
  void answered(int pushed) {
    int unused = Math.max(0, reserved - pushed);
    reserved = 0;
    if (demand) {
      available += unused;
    }
  }

  /** Whether a receive is out (reserved and not yet answered). */
  boolean receiving() {
    return reserved > 0;
  }

  /** Demand: the credits granted and not yet spent on a pushed message (reserved ones included). */
  int grant() {
    return available + reserved;
  }
}
