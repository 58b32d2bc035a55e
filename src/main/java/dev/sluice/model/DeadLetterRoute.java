package dev.sluice.model;

/**
 * Where a queue sends a message its redrive policy takes away (AWS: Amazon SQS dead-letter
 * queues). The shard implements it across shards; the message has already left its source queue
 * and carries its memory charge with it, so the route must either hand it to the dead-letter queue
 * ({@link QueueMoves#adoptDeadLetter}), give it back ({@link QueueMoves#takeBackOrRelease}), or
 * release it.
 */
public interface DeadLetterRoute {
  /**
   * Whether the dead-letter queue exists now. A receive moves a message only then: while the
   * target is missing, messages are delivered as if there were no redrive policy.
   */
  boolean exists(String deadLetterTargetArn);

  void moveTo(String deadLetterTargetArn, QueueState source, Message m, long nowMillis);
}
