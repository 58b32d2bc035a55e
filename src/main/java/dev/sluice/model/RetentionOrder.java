package dev.sluice.model;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Owned by its queue's {@link MessageStore}, on the shard event loop that owns the queue: the
 * queue's messages by sent time and the timer of their sweep.
 *
 * <p>A queue's messages by sent time, for retention (AWS: MessageRetentionPeriod), and the timed
 * sweep that expires them. New messages are sent now, so they append to one list in O(1). Messages
 * moved in by a redrive policy keep their original sent time: they go to a second list kept sorted
 * by inserting from its tail, which is short work because dead letters arrive roughly in the order
 * they were sent. The oldest message is the older of the two heads.
 */
final class RetentionOrder {
  static final int SWEEP_BATCH = 10_000;

  private final MessageList sent = new MessageList(MessageList.Links.SEND_ORDER);
  private final MessageList moved = new MessageList(MessageList.Links.SEND_ORDER);
  private final DueTimeIndex index;
  private final MessageStore store;
  private final Sweep sweep = new Sweep();

  RetentionOrder(DueTimeIndex index, MessageStore store) {
    this.index = index;
    this.store = store;
  }

  void addNew(Message m) {
    sent.addLast(m);
    scheduleIfIdle();
  }

  void addMoved(Message m) {
    m.keptSentTime = true;
    moved.insertBySentTime(m);
    Message oldest = oldest();
    if (!sweep.isScheduled() || oldest == m) {
      schedule(oldest);
    }
  }

  void remove(Message m) {
    if (m.keptSentTime) {
      moved.remove(m);
    } else {
      sent.remove(m);
    }
  }

  /** The message sent longest ago, or null. */
  Message oldest() {
    Message a = sent.first();
    Message b = moved.first();
    if (a == null) {
      return b;
    }
    return b == null || a.sentAtMillis <= b.sentAtMillis ? a : b;
  }

  /** Re-arms the sweep for the oldest message (after a sweep, or when the period changed). */
  void reschedule(long nowMillis) {
    Message oldest = oldest();
    if (oldest == null) {
      index.cancel(sweep);
    } else {
      schedule(oldest);
    }
  }

  /**
   * Visits the messages oldest first, a merge of the two lists by sent time (a tie goes to the list
   * of new messages, as {@link #oldest} breaks it), until {@code visitor} answers false.
   */
  void walkOldestFirst(Predicate<Message> visitor) {
    Message a = sent.first();
    Message b = moved.first();
    while (a != null || b != null) {
      Message next;
      if (b == null || a != null && a.sentAtMillis <= b.sentAtMillis) {
        next = a;
        a = a.sentNext;
      } else {
        next = b;
        b = b.sentNext;
      }
      if (!visitor.test(next)) {
        return;
      }
    }
  }

  void forEach(Consumer<Message> action) {
    for (Message m = sent.first(); m != null; m = m.sentNext) {
      action.accept(m);
    }
    for (Message m = moved.first(); m != null; m = m.sentNext) {
      action.accept(m);
    }
  }

  /** Forgets every message (they are all being dropped) and stops the sweep. */
  void clear() {
    sent.clear();
    moved.clear();
    index.cancel(sweep);
  }

  private void scheduleIfIdle() {
    if (!sweep.isScheduled()) {
      schedule(oldest());
    }
  }

  private void schedule(Message oldest) {
    index.schedule(sweep, oldest.sentAtMillis + store.attributes().retentionMillis());
  }

  /**
   * Drops every message older than the retention period, in flight or not. At most
   * {@link #SWEEP_BATCH} per turn, so a mass expiry never stalls the shard's other queues: the rest
   * is due again at once.
   */
  private void sweep(long nowMillis) {
    long retentionMillis = store.attributes().retentionMillis();
    Message oldest;
    int swept = 0;
    while ((oldest = oldest()) != null && oldest.sentAtMillis + retentionMillis <= nowMillis) {
      if (swept++ == SWEEP_BATCH) {
        break;
      }
      store.remove(oldest);
    }
    reschedule(nowMillis);
    store.swept(nowMillis); // expired in-flight messages may have made room under the cap
  }

  private final class Sweep extends Timed {
    @Override
    public void onDue(long nowMillis) {
      sweep(nowMillis);
    }
  }
}
