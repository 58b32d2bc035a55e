package dev.sluice.model;

import java.util.List;

/**
 * Each implementation is owned by its queue's {@link Visibility}, on the shard event loop that owns
 * the queue.
 *
 * <p>How one queue type holds its visible messages and picks the next ones to deliver: standard
 * queues keep one list in send order ({@link SendOrder}), FIFO queues keep message groups in order
 * with group locks ({@link GroupOrder}). {@link Visibility} sets each message's state and counts
 * it; the order only places it.
 */
interface DeliveryOrder {
  /** Adds a now-visible message; {@code returning} after a visibility expiry or a change to 0. */
  void addReady(Message m, boolean returning);

  /**
   * A message starts its delay, waits for its write to commit, or is restored in flight: a FIFO
   * message takes (or keeps) its place in its group meanwhile, holding back the messages behind it.
   */
  void holdPlace(Message m);

  /** A message handed back to the queue goes before the messages sent after it. */
  void placeAtFront(Message m);

  /** Makes messages just received with visibility 0 receivable again, keeping their order. */
  void returnReceived(List<Message> received);

  /** Takes a ready, in-flight, delayed or pending message out (it is being removed). */
  void forget(Message m);

  /** Messages held visible (ApproximateNumberOfMessages). */
  int readyCount();

  /**
   * Moves up to {@code max} receivable messages, in delivery order, out of the ready structure;
   * fewer only when no more are receivable right now.
   */
  void takeReceivable(int max, List<Message> out);

  boolean hasReceivable();

  /** Forgets every message; they are all being dropped. */
  void clear();

  /**
   * The next message to look at, after {@code m} came back from in flight, for one whose
   * visibility ran out at the same moment and so comes back with it (a FIFO group is never handed
   * out piecemeal): the next one of its group; null where messages come back one by one.
   */
  Message returnsWith(Message m);
}
