package dev.sluice.persistence;

/**
 * Owned by {@link DatabaseOwnership}'s context (its snapshots are read from any thread); pure: no
 * clock, no I/O, times are monotonic milliseconds passed in. Whether this server may serve, as far
 * as owning its database goes.
 *
 * <p>Holding the advisory lock is not enough to serve: a server only knows it held the lock when
 * PostgreSQL last answered on the lock's connection. So serving is allowed only while {@link
 * State#HOLDING} and before {@code validUntil}: the send time of the last answered heartbeat plus the
 * lease. Time keeps running while a process is paused (SIGSTOP, a long GC), so a process that wakes
 * up finds its lease expired and refuses until a heartbeat sent after it woke has been answered.
 *
 * <p>A server that takes over waits out its predecessor's lease before serving (unless the
 * predecessor released the database cleanly): the predecessor's last heartbeat was sent while it
 * still held the lock, so before the taker got it, and its lease ran out before the taker's wait
 * ends. This assumes both clocks run at about the same rate, not that they agree.
 */
final class Lease {
  enum State {
    /** The lock is held (as of the last heartbeat); serving while the lease is valid. */
    HOLDING,
    /** The lock's connection is gone: not serving; taking the lock again, and the epoch with it. */
    SUSPENDED,
    /** Another server claimed the database: not serving, for good. */
    FENCED
  }

  private final long epoch;
  private final long leaseMillis;
  private State state = State.HOLDING;
  private long servingFromMillis;
  private long validUntilMillis;
  private String fencedBecause;

  private Lease(long epoch, long leaseMillis) {
    this.epoch = epoch;
    this.leaseMillis = leaseMillis;
  }

  /**
   * The database was claimed at {@code epoch} with the lock taken by a query sent at {@code sentAt}
   * and answered at {@code lockedAt}. When the previous owner did not release it cleanly, serving
   * starts a lease after {@code lockedAt}.
   */
  static Lease claimed(long epoch, boolean previousReleased, long sentAt, long lockedAt, long leaseMillis) {
    Lease lease = new Lease(epoch, leaseMillis);
    lease.servingFromMillis = previousReleased ? lockedAt : lockedAt + leaseMillis;
    lease.validUntilMillis = sentAt + leaseMillis;
    return lease;
  }

  long epoch() {
    return epoch;
  }

  State state() {
    return state;
  }

  /**
   * A heartbeat sent at {@code sentAt} on the lock's connection read {@code epochRead}: the lock was
   * held then, so the lease runs until {@code sentAt} plus the lease (an answer that comes late
   * renews less); another epoch means another server claimed the database.
   */
  void heartbeat(long sentAt, long epochRead) {
    if (state != State.HOLDING) {
      return;
    }
    if (epochRead != epoch) {
      fence("the database is at epoch " + epochRead);
      return;
    }
    validUntilMillis = Math.max(validUntilMillis, sentAt + leaseMillis);
  }

  /** The lock's connection closed, or a heartbeat failed: not serving until the lock is taken again. */
  void lost() {
    if (state == State.HOLDING) {
      state = State.SUSPENDED;
    }
  }

  /**
   * The lock was taken again, and a read sent at {@code sentAt} after that found {@code epochRead}.
   * Unchanged, nobody else owned the database meanwhile (PostgreSQL restarted, say): serving
   * resumes with the same token. Changed, another server did.
   */
  void retaken(long sentAt, long epochRead) {
    if (state != State.SUSPENDED) {
      return;
    }
    if (epochRead != epoch) {
      fence("the database is at epoch " + epochRead);
      return;
    }
    state = State.HOLDING;
    validUntilMillis = sentAt + leaseMillis;
  }

  /** While suspended, the lock is held by another session and the database is at {@code epochRead}. */
  void heldElsewhere(long epochRead) {
    if (state == State.SUSPENDED && epochRead != epoch) {
      fence("the database is at epoch " + epochRead);
    }
  }

  /** PostgreSQL refused a write made with {@code attemptEpoch} (SQLSTATE SLFEN). */
  void writeRefused(long attemptEpoch) {
    if (attemptEpoch == epoch) {
      fence("PostgreSQL refused its write");
    }
  }

  private void fence(String why) {
    if (state != State.FENCED) {
      state = State.FENCED;
      fencedBecause = why;
    }
  }

  boolean mayServe(long now) {
    return state == State.HOLDING && now >= servingFromMillis && now < validUntilMillis;
  }

  /** Why this server may not serve at {@code now}, or null when it may. */
  String notServingReason(long now) {
    return switch (state) {
      case FENCED -> "another server has claimed the database (" + fencedBecause + ", this server's epoch is "
          + epoch + ")";
      case SUSPENDED -> "the connection holding the database lock was lost; taking the lock again";
      case HOLDING -> now < servingFromMillis
          ? "waiting " + (servingFromMillis - now) + " ms more for the previous owner's lease to run out"
          : now >= validUntilMillis
              ? "the database lock has not been confirmed for " + (now - validUntilMillis + leaseMillis) + " ms"
              : null;
    };
  }

  /** When {@link #mayServe} can next change with time alone, or Long.MAX_VALUE if only an event can change it. */
  long nextChangeAt(long now) {
    if (state != State.HOLDING) {
      return Long.MAX_VALUE;
    }
    if (now < servingFromMillis) {
      return servingFromMillis;
    }
    return now < validUntilMillis ? validUntilMillis : Long.MAX_VALUE;
  }

  /**
   * A copy for other threads, published through a volatile field and never changed afterwards:
   * {@link #mayServe} and {@link #notServingReason} may be called on it from any thread.
   */
  Lease snapshot() {
    Lease copy = new Lease(epoch, leaseMillis);
    copy.state = state;
    copy.servingFromMillis = servingFromMillis;
    copy.validUntilMillis = validUntilMillis;
    copy.fencedBecause = fencedBecause;
    return copy;
  }
}
