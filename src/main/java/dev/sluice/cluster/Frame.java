package dev.sluice.cluster;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;

/**
 * What nodes send each other over the cluster's event bus (design page cluster.md, §2.8), as plain
 * data; {@link ForwardCodec} writes and authenticates it. Every frame names its sender, carries the
 * sender's next sequence number (the receiver's anti-replay window, {@link FrameAuth}) and the node
 * it is for, so that a frame recorded on its way to one node is refused by every other; a frame
 * published to every member is for no one node (null).
 */
public sealed interface Frame {
  String sender();

  long sequence();

  /** The node the frame is for, or null when it is published to every member. */
  String target();

  /**
   * An action to run on the shard's owner, for {@code caller}. {@code requestId} is the entry
   * node's own number for it, which its answer, a cancel and the owner's bookkeeping use;
   * {@code deadlineLeftMillis} how long the entry node will still wait for the answer.
   */
  record Request(String sender, long sequence, String target, long requestId, int shard,
      long deadlineLeftMillis, int actionId, ForwardedCaller caller, Record body) implements Frame {}

  /**
   * The action's result ({@code body}, null for an action that answers nothing), served under the
   * shard's {@code epoch}: an entry node that knows a later epoch discards it (§2.8, late answers).
   */
  record Reply(String sender, long sequence, String target, long requestId, int shard, long epoch,
      Record body) implements Frame {}

  /** The action failed with an SQS error, as an {@link SqsException}'s three values; like a reply. */
  record Failure(String sender, long sequence, String target, long requestId, int shard, long epoch,
      ErrorCode code, String message, String queryMessage) implements Frame {

    public static Failure of(String sender, long sequence, String target, long requestId, int shard,
        long epoch, SqsException e) {
      return new Failure(sender, sequence, target, requestId, shard, epoch, e.code(), e.getMessage(),
          e.queryMessage());
    }

    public SqsException exception() {
      return new SqsException(code, message, queryMessage);
    }
  }

  /**
   * The receiver does not serve the shard, and ran nothing, so the entry node may route the request
   * again; {@code ownerHint} is the node it believes owns it, or null.
   */
  record NotHere(String sender, long sequence, String target, long requestId, int shard,
      String ownerHint) implements Frame {}

  /** The entry node's caller left: the owner drops the request, or ends its long poll. */
  record Cancel(String sender, long sequence, String target, long requestId) implements Frame {}

  /** The sender released the shard at that epoch (hand-over). */
  record Released(String sender, long sequence, String target, int shard, long epoch)
      implements Frame {}

  /** Where the sender believes the shard is served now, and under which epoch. */
  record OwnerHint(String sender, long sequence, String target, int shard, String owner, long epoch)
      implements Frame {}
}
