package dev.sluice.model;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Owned by its queue's {@link MessageStore}, on the shard event loop that owns the queue: the state
 * of each of the queue's messages, their timers, and the counts of delayed and in-flight ones.
 *
 * <p>How a stored message moves between pending, delayed, visible, in flight and gone: a delay or a
 * visibility timeout is a timer in the shard's {@link DueTimeIndex}, and when it runs out the
 * message is visible again. Visible messages are held and picked by the queue type's
 * {@link DeliveryOrder}. Whenever messages become receivable the queue is told, so that it can
 * hand them to its waiting receives. A visibility timeout that runs out may be followed by the
 * queue's redelivery backoff ({@link RedeliveryWaits}): the message is then in backoff, a due time
 * in the same index, before it is visible again.
 */
final class Visibility {
  private final DueTimeIndex index;
  private final DeliveryOrder order;
  /** Messages became receivable: the queue hands them to its waiting receives. */
  private final LongConsumer receivable;
  private final RedeliveryWaits waits;
  /** A message started its backoff: its row must say so and when it ends. */
  private final Consumer<Message> backedOff;
  private int inflightCount;
  private int delayedCount;
  private int backoffCount;

  Visibility(DueTimeIndex index, DeliveryOrder order, LongConsumer receivable, RedeliveryWaits waits,
      Consumer<Message> backedOff) {
    this.index = index;
    this.order = order;
    this.receivable = receivable;
    this.waits = waits;
    this.backedOff = backedOff;
  }

  /**
   * Durability commit: a stored message waits for its write to commit, holding its place (a FIFO
   * message in its group) meanwhile.
   */
  void pend(Message m, int delaySeconds) {
    m.pend(delaySeconds);
    order.holdPlace(m);
  }

  /** A stored message starts its delay, or becomes visible. */
  void start(Message m, int delaySeconds, long nowMillis) {
    long visibleAt = m.sentAtMillis + delaySeconds * 1000L;
    if (delaySeconds > 0 && visibleAt > nowMillis) {
      m.enter(MessageState.DELAYED);
      delayedCount++;
      order.holdPlace(m); // a no-op for a FIFO message already holding its place
      index.schedule(m, visibleAt);
    } else {
      show(m, false, nowMillis);
    }
  }

  /**
   * A message back from the durable store, in the state its row describes: in backoff (its row says
   * so; its wait is not drawn again), in flight (it was received) or delayed until
   * {@code visibleAtMillis}, else visible. Nobody is waiting yet.
   */
  void restore(Message m, long visibleAtMillis, boolean inBackoff, long nowMillis) {
    if (visibleAtMillis > nowMillis && m.receiveCount() > 0 && inBackoff) {
      m.enter(MessageState.BACKOFF);
      backoffCount++;
      order.holdPlace(m); // a FIFO message keeps its group locked until its backoff is over
      index.schedule(m, visibleAtMillis);
    } else if (visibleAtMillis > nowMillis && m.receiveCount() > 0) {
      m.enter(MessageState.IN_FLIGHT);
      inflightCount++;
      order.holdPlace(m); // a FIFO message holds its place in its group, locking it
      index.schedule(m, visibleAtMillis);
    } else if (visibleAtMillis > nowMillis) {
      m.enter(MessageState.DELAYED);
      delayedCount++;
      order.holdPlace(m);
      index.schedule(m, visibleAtMillis);
    } else {
      m.enter(MessageState.READY);
      order.addReady(m, false);
    }
  }

  /** A message is visible now; {@code returning} to the front (it was handed back). */
  void show(Message m, boolean returning, long nowMillis) {
    m.enter(MessageState.READY);
    order.addReady(m, returning);
    receivable.accept(nowMillis);
  }

  /** A message handed back goes before the messages sent after it, visible at once. */
  void showAtFront(Message m, long nowMillis) {
    order.placeAtFront(m);
    show(m, true, nowMillis);
  }

  boolean hasReceivable() {
    return order.hasReceivable();
  }

  /**
   * Takes up to {@code max} visible messages, in delivery order, and puts them in flight; fewer only
   * when no more are receivable right now.
   */
  void takeReceivable(int max, List<Message> out) {
    int from = out.size();
    order.takeReceivable(max, out);
    for (int i = from; i < out.size(); i++) {
      // In flight from here on, even with visibility 0 until the end of a receive, so that a FIFO
      // group stays locked while the rest of the receive is picked.
      out.get(i).enter(MessageState.IN_FLIGHT);
      inflightCount++;
    }
  }

  /** A message taken by a receive is received: counted, given a new receipt, hidden until due. */
  void received(Message m, long visibilityMillis, long nowMillis) {
    m.received(nowMillis);
    if (visibilityMillis > 0) {
      index.schedule(m, nowMillis + visibilityMillis);
    }
  }

  /** Messages just received with visibility 0 are receivable again at once, in their order. */
  void returnReceived(List<Message> received) {
    for (Message m : received) {
      m.enter(MessageState.READY);
      inflightCount--;
    }
    order.returnReceived(received);
  }

  /** An in-flight message stays hidden until {@code visibleAtMillis}. */
  void hideUntil(Message m, long visibleAtMillis) {
    index.schedule(m, visibleAtMillis);
  }

  /** An in-flight message is visible again at once (ChangeMessageVisibility to 0); tell next. */
  void showNow(Message m) {
    returnToReady(m);
  }

  /**
   * A delay, a visibility timeout or a backoff ran out: the message becomes visible, or, its
   * visibility having run out, starts its queue's redelivery backoff.
   */
  void onDue(Message m, long nowMillis) {
    if (m.state() == MessageState.DELAYED) {
      delayedCount--;
      show(m, false, nowMillis);
    } else if (m.state() == MessageState.BACKOFF) {
      backoffCount--;
      // It held its place (FIFO: at its group's head), as a message back from in flight does.
      show(m, true, nowMillis);
    } else if (m.state() == MessageState.IN_FLIGHT) {
      if (backedOff(m, nowMillis)) {
        return; // hidden a while longer; a FIFO group stays locked behind it
      }
      returnToReady(m);
      // The rest of its FIFO group that is due at the same moment returns before any waiter is
      // served, so a group is never handed out piecemeal; up to one that starts a backoff, which
      // holds back those behind it (they keep their own timers and come due on their own).
      for (Message next = order.returnsWith(m); next != null; next = order.returnsWith(next)) {
        if (next.state() == MessageState.IN_FLIGHT && next.dueAtMillis() <= nowMillis) {
          if (backedOff(next, nowMillis)) {
            break;
          }
          returnToReady(next);
        }
      }
      receivable.accept(nowMillis);
    }
  }

  /** Whether the in-flight {@code m}, its visibility over, starts a backoff (a wait drawn above 0). */
  private boolean backedOff(Message m, long nowMillis) {
    long waitMillis = waits.waitMillis(m);
    if (waitMillis <= 0) {
      return false;
    }
    inflightCount--;
    backoffCount++;
    m.enter(MessageState.BACKOFF);
    index.schedule(m, nowMillis + waitMillis);
    backedOff.accept(m);
    return true;
  }

  /** An in-flight message becomes visible again (its waiters are served by the caller). */
  private void returnToReady(Message m) {
    index.cancel(m);
    inflightCount--;
    m.enter(MessageState.READY);
    order.addReady(m, true);
  }

  /**
   * Whether {@code m} was still delayed, and now is until its sending time plus {@code delayMillis}
   * and not before now. One whose delay has ended is visible, even if its timer has not fired yet.
   */
  boolean redelay(Message m, long delayMillis, long nowMillis) {
    if (m.state() != MessageState.DELAYED || m.dueAtMillis() <= nowMillis) {
      return false;
    }
    index.schedule(m, Math.max(nowMillis, m.sentAtMillis + delayMillis));
    return true;
  }

  /** Tells the queue that messages may be receivable now, or that room was made under its cap. */
  void tellReceivable(long nowMillis) {
    receivable.accept(nowMillis);
  }

  /** A message leaves the queue, whatever its state: its timer and its place go. */
  void leave(Message m) {
    switch (m.state()) {
      case READY, PENDING -> order.forget(m);
      case IN_FLIGHT -> {
        index.cancel(m);
        inflightCount--;
        order.forget(m);
      }
      case DELAYED -> {
        index.cancel(m);
        delayedCount--;
        order.forget(m);
      }
      case BACKOFF -> {
        index.cancel(m);
        backoffCount--;
        order.forget(m);
      }
      case GONE -> {
        return;
      }
    }
    m.enter(MessageState.GONE);
  }

  /** One of all the messages being dropped at once; {@link #clear} follows. */
  void drop(Message m) {
    index.cancel(m);
    m.enter(MessageState.GONE);
  }

  /** Every message was dropped. */
  void clear() {
    order.clear();
    inflightCount = 0;
    delayedCount = 0;
    backoffCount = 0;
  }

  int readyCount() {
    return order.readyCount();
  }

  int inflightCount() {
    return inflightCount;
  }

  int delayedCount() {
    return delayedCount;
  }

  /** Messages waiting out their redelivery backoff. */
  int backoffCount() {
    return backoffCount;
  }
}
