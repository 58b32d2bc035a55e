package dev.sluice.model;

/**
 * One MessageGroupId of a FIFO queue: its visible and in-flight messages in order. The group is
 * available to receives while its first message is visible; while that message is in flight the
 * group is locked. Owned by the shard event loop of its queue.
 */
final class MessageGroup {
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
