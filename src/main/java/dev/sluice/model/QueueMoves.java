package dev.sluice.model;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Owned by its queue, on the shard event loop that owns the queue: messages moving between it and
 * other queues. Dead letters and redriven messages arrive (from this node, or from another as
 * transfers), a message whose next hop was gone is handed back to the front, and a move task takes
 * messages out. Kept apart from {@link QueueState}, whose actions start these moves, and from
 * {@link MessageStore}, which holds the messages while they are here.
 */
public final class QueueMoves {
  private final ShardResources env;
  private final QueueState queue;
  private final MessageStore store;
  private final QueueTypeRules rules;

  QueueMoves(ShardResources env, QueueState queue, MessageStore store, QueueTypeRules rules) {
    this.env = env;
    this.queue = queue;
    this.store = store;
    this.rules = rules;
  }

  /**
   * A dead letter from {@code sourceArn} (AWS: Amazon SQS dead-letter queues): the same message in
   * this queue, visible at once, its memory charge with it.
   */
  public void adoptDeadLetter(Message from, String sourceArn, long nowMillis) {
    String dedupId = rules.deadLetterDeduplicationId(from);
    long sequenceNumber = rules.nextSequenceNumber();
    byte[] content = MovedContents.repacked(from, dedupId, sourceArn);
    Message m = new Message(from, store.takeKey(), sequenceNumber,
        MovedContents.recharged(env.budget(), from, content));
    adoptMoved(m, content, Arrival.KEPT_SENT_TIME, nowMillis);
  }

  /**
   * A dead letter of a queue on another node (cluster mode), its content as {@code content}, its row
   * {@code originKey} of the queue with generation {@code originQueueId}: as
   * {@link #adoptDeadLetter}, charged to this node's budget, and the origin row deleted with the new
   * one's write.
   */
  public void adoptTransferredDeadLetter(RestoredMessage content, long originQueueId, long originKey, String sourceArn,
      long nowMillis) {
    adoptDeadLetter(transferred(content, originQueueId, originKey, nowMillis), sourceArn, nowMillis);
  }

  /**
   * A message a move task redrives here from a queue on another node (cluster mode): as
   * {@link #adoptRedriven}, charged and written as {@link #adoptTransferredDeadLetter} is.
   */
  public void adoptTransferredRedriven(RestoredMessage content, long originQueueId, long originKey, long nowMillis) {
    adoptRedriven(transferred(content, originQueueId, originKey, nowMillis), nowMillis);
  }

  /** A message arriving from another node, charged to this node's budget, its origin row to delete. */
  private Message transferred(RestoredMessage content, long originQueueId, long originKey, long nowMillis) {
    byte[] payload = ArrivingMessages.payload(content);
    int held = ArrivingMessages.heldBytes(payload);
    Message from = ArrivingMessages.restored(content, payload, held, nowMillis); // travelling content
    from.transferredFrom(originQueueId, originKey);
    env.budget().chargeAnyway(held);
    return from;
  }

  /** A message that left this queue for another node's arrived there: its memory charge here ends. */
  public void movedAway(Message m) {
    env.budget().release(m.heldBytes);
  }

  /** A message a move task redrives here (AWS: StartMessageMoveTask): a new message, same content. */
  public void adoptRedriven(Message from, long nowMillis) {
    String dedupId = rules.redrivenDeduplicationId(from);
    long sequenceNumber = rules.nextSequenceNumber();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] content = MovedContents.repacked(from, dedupId, null); // a new message: no dead-letter source
    Message m = Message.redriven(from, store.takeKey(), random.nextLong(), random.nextLong(), nowMillis, sequenceNumber,
        MovedContents.recharged(env.budget(), from, content));
    adoptMoved(m, content, Arrival.REDRIVEN, nowMillis);
  }

  /** A dead letter or a redriven message is visible at once here, or spilled (paged mode). */
  private void adoptMoved(Message m, byte[] content, Arrival how, long nowMillis) {
    Backlog backlog = store.backlog();
    long firstVisibleAt = backlog.firstVisibleAt(nowMillis);
    m.arrived(how, firstVisibleAt);
    store.counters.countArrival(); // a message handed back (takeBackOrRelease) is not a new arrival
    if (!backlog.admitsMoved(firstVisibleAt, nowMillis)) {
      m.travelling = content;
      backlog.spillMoved(m, nowMillis);
      return;
    }
    store.admit(m, content, how == Arrival.KEPT_SENT_TIME, false, nowMillis);
  }

  /**
   * Hands a message back to this queue as it was, at the front (its next hop was gone): it keeps
   * its place before the messages sent after it, and in a FIFO queue its sequence number. If this
   * queue has been deleted meanwhile, the message goes with it. To hand back several, go from the
   * last to the first.
   */
  public void takeBackOrRelease(Message from, long nowMillis) {
    if (queue.closed()) {
      env.budget().release(from.heldBytes);
      return;
    }
    Message m = new Message(from, store.takeKey(), from.sequenceNumber, from.heldBytes);
    m.arrived(Arrival.KEPT_SENT_TIME, store.backlog().takenBackFirstVisibleAt(from.firstVisibleAtMillis()));
    store.admit(m, from.payload(), true, true, nowMillis); // its travelling content, written back as it was
  }

  /** Up to {@code max} visible messages leave for a move task, in delivery order, with their charge. */
  List<Message> takeForMove(int max, long nowMillis) {
    List<Message> taken = new ArrayList<>(max);
    store.takeReceivable(max, taken);
    while (taken.size() < max && store.backlog().operations().pageNow(nowMillis)) {
      store.takeReceivable(max - taken.size(), taken);
    }
    for (Message m : taken) {
      store.detachForMove(m); // in flight, as a receive leaves them, so they are found where they are
    }
    return taken;
  }

  /**
   * Paged mode: if durable-only rows of this queue are due, {@code task} is scheduled (in a later
   * turn, never within the answer's call) once a page read is answered or nothing is left to wait
   * for, and true is returned; false when no row is due, and nothing is scheduled.
   */
  boolean whenPaged(Timed task) {
    return store.backlog().operations().whenPaged(task);
  }
}
