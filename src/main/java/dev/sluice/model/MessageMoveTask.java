package dev.sluice.model;

import java.util.List;

/**
 * A DLQ redrive (StartMessageMoveTask in the AWS API reference): moves the messages visible in a
 * dead-letter queue when the task started back to their source queues, or to one destination, as
 * new messages. It runs in steps on the dead-letter queue's shard: each step takes a batch out of
 * the queue, hands it to the {@link MessageMover} and waits for the report before the next step,
 * so a rate limit of N per second is one batch of N per second. Messages that could not be
 * delivered go back to the dead-letter queue and the task fails. Owned by the shard event loop of
 * its dead-letter queue.
 */
public final class MessageMoveTask extends Timed {
  public enum Status { RUNNING, COMPLETED, CANCELLING, CANCELLED, FAILED }

  /** Messages per step when no rate is given ("system-optimized"): bounded work per loop turn. */
  static final int UNLIMITED_STEP = 500;
  static final long STEP_INTERVAL_MILLIS = 1000;

  private final String taskId;
  private final QueueState source;
  private final DueTimeIndex index;
  private final String destinationArn;
  private final Integer maxPerSecond;
  private final MessageMover mover;
  private final long startedAtMillis;
  private final long toMove;
  private long moved;
  private int awaiting;
  private long lastStepAtMillis;
  private Status status = Status.RUNNING;
  private String failureReason;

  MessageMoveTask(
      String taskId, QueueState source, DueTimeIndex index, String destinationArn, Integer maxPerSecond,
      MessageMover mover, long nowMillis) {
    this.taskId = taskId;
    this.source = source;
    this.index = index;
    this.destinationArn = destinationArn;
    this.maxPerSecond = maxPerSecond;
    this.mover = mover;
    this.startedAtMillis = nowMillis;
    this.toMove = source.approximateNumberOfMessages(nowMillis);
  }

  @Override
  public void onDue(long nowMillis) {
    step(nowMillis);
  }

  private void step(long nowMillis) {
    if (status != Status.RUNNING) {
      return;
    }
    int room = maxPerSecond == null ? UNLIMITED_STEP : maxPerSecond;
    int n = (int) Math.min(room, toMove - moved);
    List<Message> batch = n <= 0 ? List.of() : source.moves().takeForMove(n, nowMillis);
    if (batch.isEmpty()) {
      // Durable-only rows still due are the task's to move too: it is stepped again once a page of
      // them is in memory (or nothing is left to wait for), rather than reporting them moved.
      if (n > 0 && source.moves().whenPaged(this)) {
        return;
      }
      status = Status.COMPLETED;
      return;
    }
    awaiting = batch.size();
    lastStepAtMillis = nowMillis;
    mover.move(this, batch, nowMillis);
  }

  /**
   * The report of one step: how many arrived, the ones that could not be delivered (they return to
   * the dead-letter queue) and why, as a Query error code.
   */
  public void delivered(int arrived, List<Message> undelivered, String failure, long nowMillis) {
    moved += arrived;
    awaiting = 0;
    for (int i = undelivered.size() - 1; i >= 0; i--) {
      source.moves().takeBackOrRelease(undelivered.get(i), nowMillis); // last first: each goes to the front
    }
    if (failure != null) {
      status = Status.FAILED;
      failureReason = failure;
    } else if (status == Status.CANCELLING) {
      status = Status.CANCELLED;
    } else if (status == Status.RUNNING) {
      if (moved >= toMove) {
        status = Status.COMPLETED;
      } else {
        index.schedule(
            this, maxPerSecond == null ? nowMillis : lastStepAtMillis + STEP_INTERVAL_MILLIS);
      }
    }
  }

  /** CancelMessageMoveTask: stops after the step under way, if any; returns the count moved. */
  public long cancel() {
    index.cancel(this);
    status = awaiting > 0 ? Status.CANCELLING : Status.CANCELLED;
    return moved;
  }

  /** The dead-letter queue was deleted: the task ends here. */
  void abandon() {
    index.cancel(this);
    if (status == Status.RUNNING || status == Status.CANCELLING) {
      status = Status.FAILED;
      failureReason = "AWS.SimpleQueueService.NonExistentQueue";
    }
  }

  public String taskId() {
    return taskId;
  }

  public String sourceArn() {
    return source.metadata().arn();
  }

  public String destinationArn() {
    return destinationArn;
  }

  public Integer maxNumberOfMessagesPerSecond() {
    return maxPerSecond;
  }

  public long startedAtMillis() {
    return startedAtMillis;
  }

  public long approximateNumberOfMessagesToMove() {
    return toMove;
  }

  public long approximateNumberOfMessagesMoved() {
    return moved;
  }

  public Status status() {
    return status;
  }

  public boolean isActive() {
    return status == Status.RUNNING || status == Status.CANCELLING;
  }

  public String failureReason() {
    return failureReason;
  }
}
