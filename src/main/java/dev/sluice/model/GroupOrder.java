package dev.sluice.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Owned by the {@link Visibility} of its FIFO queue, on the shard event loop that owns the queue: the
 * message groups (their lists and availability), the available ones and the ready stamps.
 *
 * <p>A FIFO queue's messages, kept per MessageGroupId in order, delayed ones included; a group is
 * locked while its first message is in flight (or still delayed), so its later messages wait.
 * Available groups are served in the order their first messages became visible: a message sent, or
 * returned by an expired visibility, gets the next "ready stamp", and a group waits under the stamp
 * of its head. This is the order AWS shows (a group whose head came back from in flight goes behind
 * groups that waited). One receive takes as many messages of one group as it can, in order, before
 * the next group.
 */
final class GroupOrder implements DeliveryOrder {
  /**
   * One MessageGroupId: its messages in order, delayed and pending ones included. The group is
   * available to receives while its first message is visible; while that message is in flight (or
   * delayed, or pending) the group is locked.
   */
  static final class MessageGroup {
    static final long NOT_AVAILABLE = -1;

    final String id;
    final MessageList messages = new MessageList(MessageList.Links.READY);
    /** The ready stamp of the head under which the group waits among the available ones, if it does. */
    long availableAs = NOT_AVAILABLE;

    MessageGroup(String id) {
      this.id = id;
    }

    boolean isAvailable() {
      return availableAs != NOT_AVAILABLE;
    }
  }

  private final Map<String, MessageGroup> groups = new HashMap<>();
  /** Available groups by the ready stamp of their head message. */
  private final TreeMap<Long, MessageGroup> available = new TreeMap<>();
  private long nextStamp = 1;
  private int readyCount;

  /**
   * A delayed (or pending, or restored in-flight) message takes its place in its group at once,
   * and holds back the messages behind it until its delay is over (or its write has committed), so
   * that a later message never overtakes it (after a change of the queue's delay, or one that
   * arrived undelayed from a dead-letter or move). A message already holding its place keeps it.
   */
  @Override
  public void holdPlace(Message m) {
    MessageGroup g = groupOf(m);
    if (m.prev == null && g.messages.first() != m) {
      g.messages.addLast(m);
    }
  }

  @Override
  public void addReady(Message m, boolean returning) {
    readyCount++;
    m.stamp(nextStamp++);
    MessageGroup g = groupOf(m);
    // Returning messages, and delayed ones whose delay is over, already hold their place.
    if (!returning && m.prev == null && g.messages.first() != m) {
      g.messages.addLast(m);
    }
    if (g.messages.first() == m) {
      makeAvailable(g, m);
    }
  }

  /** A message handed back goes to the head of its group. */
  @Override
  public void placeAtFront(Message m) {
    MessageGroup g = groupOf(m);
    if (g.isAvailable()) {
      available.remove(g.availableAs); // its head changes
      g.availableAs = MessageGroup.NOT_AVAILABLE;
    }
    g.messages.addFirst(m);
  }

  /**
   * The message's group, made if it has none; the message keeps the group's id string from now on,
   * so the messages of a group share one (design/tails.md §2.4), and its own copy is garbage.
   */
  private MessageGroup groupOf(Message m) {
    MessageGroup g = groups.computeIfAbsent(m.groupId, MessageGroup::new);
    m.groupId = g.id;
    return g;
  }

  @Override
  public void returnReceived(List<Message> received) {
    for (Message m : received) {
      addReady(m, true);
    }
  }

  @Override
  public void forget(Message m) {
    if (m.state() == MessageState.READY) {
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
    } else if (head.state() == MessageState.READY) {
      makeAvailable(g, head);
    }
  }

  private void makeAvailable(MessageGroup g, Message head) {
    if (g.isAvailable()) {
      available.remove(g.availableAs);
    }
    g.availableAs = head.readyStamp();
    available.put(head.readyStamp(), g);
  }

  @Override
  public int readyCount() {
    return readyCount;
  }

  @Override
  public void takeReceivable(int max, List<Message> out) {
    int taken = 0;
    while (taken < max && !available.isEmpty()) {
      MessageGroup g = available.pollFirstEntry().getValue();
      g.availableAs = MessageGroup.NOT_AVAILABLE;
      // The head is visible; take it and the visible messages behind it, up to the first in flight.
      for (Message m = g.messages.first(); m != null && m.state() == MessageState.READY && taken < max; m = m.next) {
        out.add(m);
        taken++;
      }
    }
    readyCount -= taken;
  }

  @Override
  public boolean hasReceivable() {
    return !available.isEmpty();
  }

  @Override
  public void clear() {
    groups.clear();
    available.clear();
    readyCount = 0;
  }

  /** The next message of {@code m}'s group: a group's messages due at the same moment return together. */
  @Override
  public Message returnsWith(Message m) {
    return m.next;
  }
}
