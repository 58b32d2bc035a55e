package dev.sluice.cluster;

/**
 * One virtual shard's lease as this node knows it (design page cluster.md, §2.4 and §2.6): pure,
 * with monotonic milliseconds passed in, owned by the node's lease keeper.
 *
 * <p>PostgreSQL lets another node take the shard only once the lease has run out by its own clock,
 * {@code leaseMillis} after the last renewal executed, which in real time is after that renewal was
 * sent. So this node may serve the shard until the send time of the last renewal PostgreSQL
 * confirmed, plus the lease, less a margin: the margin covers this node's clock running faster than
 * PostgreSQL's and the time between the serving check and an answer leaving the process. A renewal
 * answered late renews less; a pause (SIGSTOP, a long GC) finds the lease expired on waking, and
 * the shard stays closed until a renewal sent after the pause is confirmed. A shard whose epoch
 * moved on (another node took it, or it was released) never opens again under this lease: only a
 * new claim, with a new epoch, does.
 */
public final class ShardLease {
  /** Where the shard stands on this node. */
  public enum State {
    /** Not held here. */
    ABSENT,
    /** Claimed; its queues are being loaded: calls wait elsewhere. */
    LOADING,
    /** Held and loaded: serving while the lease is valid. */
    SERVING,
    /** Being handed over: no new calls, the writer drains, then the lease is released. */
    DRAINING
  }

  private final long leaseMillis;
  private final long marginMillis;
  private State state = State.ABSENT;
  private long epoch = -1;
  private long validUntilMillis = Long.MIN_VALUE;

  public ShardLease(long leaseMillis, long marginMillis) {
    if (marginMillis < 0 || marginMillis >= leaseMillis) {
      throw new IllegalArgumentException("the margin must be at least 0 and less than the lease: "
          + marginMillis + " of " + leaseMillis + " ms");
    }
    this.leaseMillis = leaseMillis;
    this.marginMillis = marginMillis;
  }

  public State state() {
    return state;
  }

  /** The epoch this node holds the shard at, or -1 when it holds nothing. */
  public long epoch() {
    return epoch;
  }

  /** Until when (this node's monotonic clock) the shard may serve, if it is serving. */
  public long validUntilMillis() {
    return validUntilMillis;
  }

  /**
   * The claim sent at {@code sentAtMillis} took the shard at {@code newEpoch}: loading starts. A
   * claim answered while the shard is held here (at another epoch) replaces it.
   */
  public void claimed(long newEpoch, long sentAtMillis) {
    state = State.LOADING;
    epoch = newEpoch;
    validUntilMillis = sentAtMillis + leaseMillis - marginMillis;
  }

  /** Its queues are loaded: it serves, while the lease is valid. */
  public void loaded() {
    if (state == State.LOADING) {
      state = State.SERVING;
    }
  }

  /**
   * A renewal sent at {@code sentAtMillis} was answered: {@code confirmed} if PostgreSQL still had
   * the shard at this node's epoch (the lease then runs from the send time, never backwards), else
   * the shard is lost for good.
   */
  public void renewed(long sentAtMillis, boolean confirmed) {
    if (state == State.ABSENT) {
      return;
    }
    if (!confirmed) {
      lost();
      return;
    }
    validUntilMillis = Math.max(validUntilMillis, sentAtMillis + leaseMillis - marginMillis);
  }

  /** A hand-over begins: no new calls; the lease keeps being renewed until it is released. */
  public void draining() {
    if (state == State.SERVING || state == State.LOADING) {
      state = State.DRAINING;
    }
  }

  /** Released (after a hand-over), or lost: nothing of it is served or written under this epoch. */
  public void lost() {
    state = State.ABSENT;
    epoch = -1;
    validUntilMillis = Long.MIN_VALUE;
  }

  /** Whether a client call may run on the shard at {@code nowMillis}. */
  public boolean serving(long nowMillis) {
    return state == State.SERVING && nowMillis < validUntilMillis;
  }

  /**
   * Why a call may not run at {@code nowMillis}, for the retryable error it gets; null when it may.
   */
  public String closedBecause(long nowMillis) {
    return switch (state) {
      case ABSENT -> "this node does not hold the shard";
      case LOADING -> "the shard is being loaded";
      case DRAINING -> "the shard is being handed over";
      case SERVING -> nowMillis < validUntilMillis ? null
          : "the shard's lease was not renewed in time (" + (nowMillis - validUntilMillis) + " ms late)";
    };
  }
}
