package dev.sluice.engine;

import java.util.List;

/**
 * What the push service asks of a queue's node beyond the SQS actions (cluster mode forwards these
 * like any other: {@link EngineActions#PUSH_VISIBILITY_TIMEOUT}, {@link EngineActions#GIVE_BACK}).
 */
public final class PushRequests {
  private PushRequests() {}

  /** A subscription's queue: its visibility timeout, asked as ReceiveMessage (and so checked). */
  public record VisibilityTimeout(String queueUrl) {}

  /** The queue's visibility timeout, in seconds. */
  public record Seconds(int seconds) {}

  /** A closed subscription's messages, visible again at once (not a client's call: not gated). */
  public record GiveBack(String queueUrl, List<String> receiptHandles) {}
}
