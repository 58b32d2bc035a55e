package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The receives parked on one queue, oldest first: each waits until its queue hands it messages,
 * its deadline passes (it answers empty) or its caller goes away (it is dropped unanswered).
 * Owned by the shard event loop of its queue; the deadlines live in that shard's due-time index.
 */
final class ParkedReceives {
  private final LinkedHashSet<Waiter> waiters = new LinkedHashSet<>();
  private final DueTimeIndex index;
  private final ParkingLimits limits;

  ParkedReceives(DueTimeIndex index, ParkingLimits limits) {
    this.index = index;
    this.limits = limits;
  }

  /** Whether one more receive may park, within the per-queue and per-shard bounds. */
  boolean hasRoom() {
    return waiters.size() < limits.maxPerQueue() && !limits.shardFull();
  }

  /** Parks until {@code deadlineMillis}; RequestThrottled past the per-queue or per-shard bound. */
  void park(Waiter w, long deadlineMillis) {
    if (!hasRoom()) {
      throw new SqsException(
          ErrorCode.REQUEST_THROTTLED,
          "Too many long polls are waiting on this server; retry later or use fewer concurrent receives.");
    }
    w.parkedIn = this;
    waiters.add(w);
    limits.parked();
    index.schedule(w, deadlineMillis);
  }

  /** Drops a waiter whose caller went away; it will never complete. */
  void cancel(Waiter w) {
    if (unpark(w)) {
      w.markCancelled();
    }
  }

  /** The deadline passed: the waiter answers empty. */
  void expire(Waiter w) {
    if (unpark(w)) {
      w.complete(List.of());
    }
  }

  /**
   * The oldest waiter whose caller is still there, left parked, or null; waiters whose callers left
   * are dropped on the way.
   */
  Waiter oldest() {
    Iterator<Waiter> it = waiters.iterator();
    while (it.hasNext()) {
      Waiter w = it.next();
      if (!w.isAbandoned()) {
        return w;
      }
      unpark(w);
      w.markCancelled();
      it = waiters.iterator();
    }
    return null;
  }

  /** Unparks a waiter about to be completed with messages. */
  void take(Waiter w) {
    unpark(w);
  }

  /** The queue is going away: every waiter answers empty. */
  void answerAllEmpty() {
    for (Waiter w : new ArrayList<>(waiters)) {
      expire(w);
    }
  }

  boolean isEmpty() {
    return waiters.isEmpty();
  }

  int size() {
    return waiters.size();
  }

  private boolean unpark(Waiter w) {
    if (!waiters.remove(w)) {
      return false;
    }
    index.cancel(w);
    limits.unparked();
    return true;
  }
}
