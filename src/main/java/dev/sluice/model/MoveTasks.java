package dev.sluice.model;

import dev.sluice.api.SqsException;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A dead-letter queue's message move tasks (AWS API reference: StartMessageMoveTask): at most one active at a time, and
 * the last {@link #LISTED} kept, newest first, for ListMessageMoveTasks. Owned by the shard event
 * loop of its queue.
 */
final class MoveTasks {
  static final int LISTED = 10;

  private final ArrayDeque<MessageMoveTask> tasks = new ArrayDeque<>();
  private final DueTimeIndex index;

  MoveTasks(DueTimeIndex index) {
    this.index = index;
  }

  MessageMoveTask start(
      QueueState queue, String destinationArn, Integer maxPerSecond, MessageMover mover, long nowMillis) {
    for (MessageMoveTask t : tasks) {
      if (t.isActive()) {
        throw SqsException.invalidParameter(
            "There is already a task running. Only one active task is allowed for a source queue arn at a given"
                + " time.");
      }
    }
    MessageMoveTask task =
        new MessageMoveTask(Ids.uuid(), queue, index, destinationArn, maxPerSecond, mover, nowMillis);
    tasks.addFirst(task);
    if (tasks.size() > LISTED) {
      tasks.removeLast();
    }
    index.schedule(task, nowMillis);
    return task;
  }

  List<MessageMoveTask> newestFirst() {
    return List.copyOf(tasks);
  }

  /** The queue is being deleted: running tasks end. */
  void abandonAll() {
    tasks.forEach(MessageMoveTask::abandon);
  }
}
