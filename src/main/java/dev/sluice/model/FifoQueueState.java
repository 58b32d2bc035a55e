package dev.sluice.model;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A FIFO queue (sqs-reference §6). Messages are kept per MessageGroupId in order, delayed ones
 * included; a group is locked while its first message is in flight (or still delayed), so its later
 * messages wait. Available groups are served in
 * the order their first messages became visible: a message sent, or returned by an expired
 * visibility, gets the next "ready stamp", and a group waits under the stamp of its head. This is
 * the order AWS shows (a group whose head came back from in flight goes behind groups that waited).
 * One receive takes as many messages of one group as it can, in order, before the next group.
 *
 * <p>Sends are deduplicated for five minutes by MessageDeduplicationId or the body's SHA-256, per
 * queue or per group as the DeduplicationScope was at creation (AWS keeps the creation-time scope).
 * Owned by the shard event loop that owns the queue.
 */
public final class FifoQueueState extends QueueState {
  private final Map<String, MessageGroup> groups = new HashMap<>();
  /** Available groups by the ready stamp of their head message. */
  private final TreeMap<Long, MessageGroup> available = new TreeMap<>();
  private long nextStamp = 1;
  private int readyCount;
  private long lastSequenceNumber;
  private final boolean deduplicateWithinGroup;
  private final DeduplicationWindow deduplication;
  private final ReceiveAttempts attempts = new ReceiveAttempts();

  public FifoQueueState(ShardResources env, QueueMetadata metadata) {
    super(env, metadata);
    this.lastSequenceNumber = SequenceNumbers.firstFor(metadata.createdAtMillis());
    this.deduplicateWithinGroup = "messageGroup".equals(metadata.attributes().shown(QueueAttributes.DEDUPLICATION_SCOPE));
    this.deduplication = new DeduplicationWindow(env.index(), env.budget());
  }

  // ---- sending ------------------------------------------------------------------------------

  @Override
  public void checkBatch(List<NewMessage> messages) {
    // A batch entry without a group or a deduplication id fails the whole request (§2.9).
    for (NewMessage m : messages) {
      if (m.groupId() == null) {
        throw SqsException.invalidParameter("The request must contain the parameter MessageGroupId.");
      }
      checkDeduplicationPossible(m);
    }
    super.checkBatch(messages);
  }

  @Override
  protected SendMessage.Response sendChecked(NewMessage m, boolean batchEntry, long payload, long nowMillis) {
    if (m.groupId() == null) {
      throw SqsException.missingParameter("MessageGroupId");
    }
    Integer delay = m.delaySeconds();
    if (delay != null && delay != 0) {
      // Only the queue's delay applies to FIFO messages; an explicit 0 is accepted (§5.2).
      throw SqsException.invalidValue(
          delay, "DelaySeconds", "The request include parameter that is not valid for this queue type.");
    }
    checkDeduplicationPossible(m);
    String dedupId = m.deduplicationId() != null ? m.deduplicationId() : Digests.sha256Hex(m.body());
    // Group ids are printable ASCII, so \u0001 cannot occur in one; and unlike \u0000, PostgreSQL's
    // text type can store it (the durable store keeps these keys).
    String key = deduplicateWithinGroup ? m.groupId() + '\u0001' + dedupId : dedupId;
    DeduplicationWindow.Original original = deduplication.find(key, nowMillis);
    if (original != null) {
      // A duplicate succeeds without being enqueued, and answers with the original's id (§6).
      return new SendMessage.Response(
          original.messageId(), Digests.md5Hex(m.body()), Digests.md5OfAttributes(m.attributes()),
          Digests.md5OfAttributes(m.systemAttributes()), SequenceNumbers.format(original.sequenceNumber()));
    }
    int entryBytes = DeduplicationWindow.bytesFor(key);
    charge(entryBytes);
    Message msg;
    try {
      msg = store(m, payload, attributes().delaySeconds(), dedupId, nextSequenceNumber(), nowMillis);
    } catch (SqsException e) {
      env.budget().release(entryBytes);
      throw e;
    }
    long expiresAt = deduplication.remember(key, msg, entryBytes, nowMillis);
    env.changes().deduplicationRemembered(this, key, msg, expiresAt);
    return sent(msg, m);
  }

  private void checkDeduplicationPossible(NewMessage m) {
    if (m.deduplicationId() == null && !attributes().contentBasedDeduplication()) {
      throw SqsException.invalidParameter(
          "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
    }
  }

  @Override
  protected long nextSequenceNumber() {
    return ++lastSequenceNumber;
  }

  /** Puts back a deduplication entry from the durable store (start-up, in expiry order). */
  public void restoreDeduplication(String key, String messageId, long sequenceNumber, long expiresAtMillis) {
    int bytes = DeduplicationWindow.bytesFor(key);
    charge(bytes);
    deduplication.restore(key, messageId, sequenceNumber, expiresAtMillis, bytes);
    restoredSequence(sequenceNumber);
  }

  /**
   * After a restart, numbers continue from the later of the highest restored one and the current
   * time's: a purged or emptied queue restores none, and must still never hand one out twice.
   */
  public void resumeSequence(long nowMillis) {
    lastSequenceNumber = Math.max(lastSequenceNumber, SequenceNumbers.firstFor(nowMillis));
  }

  @Override
  protected void onPendingDropped(Message m) {
    deduplication.forgetMessage(m.messageId());
  }

  @Override
  protected void restoredSequence(long sequenceNumber) {
    lastSequenceNumber = Math.max(lastSequenceNumber, sequenceNumber);
  }

  /** A changed queue delay also applies to messages still delayed (§3.1), keeping their order. */
  @Override
  protected void onDelayChanged(long nowMillis) {
    long delayMillis = attributes().delaySeconds() * 1000L;
    forEachDelayed(m -> env.index().schedule(m, Math.max(nowMillis, m.sentAtMillis + delayMillis)));
  }

  // ---- the ready structure ------------------------------------------------------------------

  /**
   * A delayed (or pending) message takes its place in its group at once, and holds back the
   * messages behind it until its delay is over (or its write has committed), so that a later message never overtakes it (after a change of the
   * queue's delay, or one that arrived undelayed from a dead-letter or move).
   */
  @Override
  protected void addDelayed(Message m) {
    MessageGroup g = groups.computeIfAbsent(m.groupId, MessageGroup::new);
    if (m.prev == null && g.messages.first() != m) {
      g.messages.addLast(m);
    }
  }

  @Override
  protected void addReady(Message m, boolean returning) {
    readyCount++;
    m.readyStamp = nextStamp++;
    MessageGroup g = groups.computeIfAbsent(m.groupId, MessageGroup::new);
    // Returning messages, and delayed ones whose delay is over, already hold their place.
    if (!returning && m.prev == null && g.messages.first() != m) {
      g.messages.addLast(m);
    }
    if (g.messages.first() == m) {
      makeAvailable(g, m);
    }
  }

  @Override
  protected void placeAtFront(Message m) {
    MessageGroup g = groups.computeIfAbsent(m.groupId, MessageGroup::new);
    if (g.isAvailable()) {
      available.remove(g.availableAs); // its head changes
      g.availableAs = MessageGroup.NOT_AVAILABLE;
    }
    g.messages.addFirst(m);
  }

  @Override
  protected void returnReceived(List<Message> received) {
    for (Message m : received) {
      addReady(m, true);
    }
  }

  @Override
  protected void forget(Message m) {
    if (m.state == MessageState.READY) {
      readyCount--;
    }
    MessageGroup g = groups.get(m.groupId);
    boolean wasHead = g.messages.first() == m;
    g.messages.remove(m);
    if (!wasHead) {
      return;
    }
    if (g.isAvailable()) {
      available.remove(g.availableAs);
      g.availableAs = MessageGroup.NOT_AVAILABLE;
    }
    Message head = g.messages.first();
    if (head == null) {
      groups.remove(g.id);
    } else if (head.state == MessageState.READY) {
      makeAvailable(g, head);
    }
  }

  private void makeAvailable(MessageGroup g, Message head) {
    if (g.isAvailable()) {
      available.remove(g.availableAs);
    }
    g.availableAs = head.readyStamp;
    available.put(head.readyStamp, g);
  }

  @Override
  protected int readyCount() {
    return readyCount;
  }

  @Override
  protected void takeReceivable(int max, List<Message> out) {
    int taken = 0;
    while (taken < max && !available.isEmpty()) {
      MessageGroup g = available.pollFirstEntry().getValue();
      g.availableAs = MessageGroup.NOT_AVAILABLE;
      // The head is visible; take it and the visible messages behind it, up to the first in flight.
      for (Message m = g.messages.first(); m != null && m.state == MessageState.READY && taken < max; m = m.next) {
        out.add(m);
        taken++;
      }
    }
    readyCount -= taken;
  }

  @Override
  protected boolean hasReceivable() {
    return !available.isEmpty();
  }

  @Override
  protected void clearReady() {
    groups.clear();
    available.clear();
    readyCount = 0;
  }

  /** A group's messages whose visibility ran out at the same moment return together. */
  @Override
  protected void returnAlsoDue(Message m, long nowMillis) {
    for (Message next = m.next; next != null; next = next.next) {
      if (next.state == MessageState.IN_FLIGHT && next.dueAtMillis() <= nowMillis) {
        returnToReady(next);
      }
    }
  }

  // ---- receiving ----------------------------------------------------------------------------

  @Override
  public List<ReceiveMessage.Message> receive(ReceiveSpec spec, long nowMillis) {
    if (spec.attemptId() != null) {
      List<ReceiveMessage.Message> again = replay(attempts.find(spec.attemptId(), nowMillis), spec, nowMillis);
      if (again != null) {
        return again;
      }
    }
    return super.receive(spec, nowMillis);
  }

  /**
   * A retried receive: the same messages and handles (a handle is a MAC of the message and its
   * receive number, so it comes out the same), with their visibility started again; null when the
   * attempt is unknown or any of its messages changed since.
   */
  private List<ReceiveMessage.Message> replay(ReceiveAttempts.Attempt attempt, ReceiveSpec spec, long nowMillis) {
    if (attempt == null) {
      return null;
    }
    List<Message> messages = new ArrayList<>(attempt.keys.length);
    for (int i = 0; i < attempt.keys.length; i++) {
      Message m = find(attempt.keys[i]);
      if (!attempt.unchanged(i, m)) {
        return null;
      }
      messages.add(m);
    }
    List<ReceiveMessage.Message> views = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      Message m = messages.get(i);
      env.index().schedule(m, nowMillis + spec.visibilitySeconds() * 1000L);
      attempt.visibleAtMillis[i] = m.dueAtMillis();
      views.add(ReceivedMessages.view(m, receiptHandle(m), attempt.selection));
    }
    return views;
  }

  @Override
  protected void afterReceive(
      ReceiveSpec spec, List<Message> received, List<ReceiveMessage.Message> views, long nowMillis) {
    if (spec.attemptId() != null && !received.isEmpty() && spec.visibilitySeconds() > 0) {
      attempts.remember(spec.attemptId(), spec.selection(), received, nowMillis);
    }
  }

  /**
   * FIFO receipts must be the current ones: deleting with a handle whose visibility ran out, or
   * from an earlier receive, fails (§2.11, §4.6). A visibility change with the current handle of a
   * message that is visible again is accepted and has no effect, as on standard queues.
   */
  @Override
  protected void checkReceiptCurrent(Message m, ReceiptHandleCodec.Receipt r, String handle, boolean delete) {
    boolean current = r.receiptSequence() == m.receiptSequence;
    if (!current || (delete && m.state != MessageState.IN_FLIGHT)) {
      throw SqsException.invalidValue(handle, "ReceiptHandle", "The receipt handle has expired.");
    }
  }

  @Override
  protected void dropAllMessages() {
    super.dropAllMessages();
    deduplication.clear();
    attempts.clear();
  }
}
