package dev.sluice.model;

import java.util.TreeSet;

/**
 * Owned by a paged queue's {@link Backlog}: the resident part of the queue's never-received
 * messages (design page §2.5, I1). The frontier R ends it: no resident never-received message is
 * after R, except extras, and no durable-only row is at or before it.
 *
 * <p>Two kinds of resident never-received message count against the head window: the head (visible
 * or pending, at or before R, in delivery order) and extras, delayed ones kept resident within the
 * delayed horizon, which stay out of the delivery order until their delay ends and are then
 * promoted to R or evicted. A send or an extra is admitted only while fewer than W are resident,
 * while a page is read whenever the head is below W: so due durable-only rows are read even while
 * extras fill the window (else they would wait for the extras' delays), and at most 2W
 * never-received messages are resident (W extras, then pages up to a head of W). A FIFO queue has no
 * extras: its order is by sequence number, whatever the delay.
 */
final class ResidentRegion {
  /** FIFO: a delayed message holds its place in sequence order, so every admission moves R. */
  private final boolean fifo;
  private DeliveryPosition frontier = DeliveryPosition.MIN;
  /** Resident never-received messages counted against the window: see {@link Message#inWindow}. */
  private int inWindow;
  /** The positions of the extras: reads stop short of the first after R (its timer may be late). */
  private final TreeSet<DeliveryPosition> extras = new TreeSet<>();

  ResidentRegion(boolean fifo) {
    this.fifo = fifo;
  }

  /**
   * A never-received message became resident: it counts against the window; visible now, it moves
   * the frontier, else it is an extra until its delay ends ({@link #extraDue}).
   */
  void admitted(Message m, long nowMillis) {
    m.inWindow = true;
    inWindow++;
    DeliveryPosition p = DeliveryPosition.of(m);
    if (fifo || m.firstVisibleAtMillis() <= nowMillis) {
      frontier = DeliveryPosition.max(frontier, p);
    } else {
      extras.add(p);
    }
  }

  /** A resident message was taken by a receive or a move, or left the queue. */
  void left(Message m) {
    if (m.inWindow) {
      m.inWindow = false;
      inWindow--;
      if (!extras.isEmpty()) {
        extras.remove(DeliveryPosition.of(m));
      }
    }
  }

  /** An extra's delay ended: it is no longer one, whether it is promoted or evicted next. */
  void extraDue(Message m) {
    extras.remove(DeliveryPosition.of(m));
  }

  boolean isExtra(Message m) {
    return m.inWindow && extras.contains(DeliveryPosition.of(m));
  }

  /** R moves to {@code p} if it is further: a promoted extra, or a row a page brought. */
  void reached(DeliveryPosition p) {
    frontier = DeliveryPosition.max(frontier, p);
  }

  /** The first extra after R, which a read must stop short of; or null. */
  DeliveryPosition firstExtraAfterFrontier() {
    return extras.higher(frontier);
  }

  DeliveryPosition frontier() {
    return frontier;
  }

  int inWindow() {
    return inWindow;
  }

  /** Resident never-received messages that are not extras: the visible (or pending) head. */
  int head() {
    return inWindow - extras.size();
  }

  /** A purge dropped every resident message. */
  void clear() {
    inWindow = 0;
    extras.clear();
  }
}
