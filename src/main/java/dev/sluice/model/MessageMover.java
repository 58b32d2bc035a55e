package dev.sluice.model;

import java.util.List;

/**
 * Delivers what a message move task took from its dead-letter queue (AWS API reference: StartMessageMoveTask) to the
 * task's destination, or to each message's source queue. The shard implements it across shards
 * and reports back with {@link MessageMoveTask#delivered} on the task's shard.
 */
public interface MessageMover {
  void move(MessageMoveTask task, List<Message> batch, long nowMillis);
}
