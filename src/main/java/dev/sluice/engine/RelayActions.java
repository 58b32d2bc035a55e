package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.RelaySend;
import dev.sluice.api.SqsException;
import dev.sluice.api.topics.SnsException;
import dev.sluice.model.NewMessage;
import dev.sluice.model.QueueState;
import dev.sluice.model.RelayReceipts;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The outbox relay's calls (src/site/markdown/outbox.md): rows sent to the shard that owns their
 * queue, each at most once ({@link RelayReceipts}), answered once committed (under relaxed
 * durability too: the relay deletes its rows once answered); their receipts forgotten; and the
 * receipts this node's shards hold, for a relay to reconcile. Every call is refused when its
 * relay's lease was taken over (the fencing epoch, {@link RelayReceipts#admitEpoch}). Stateless.
 */
public final class RelayActions {
  /** The rows are sends, and are allowed and refused as SendMessage is. */
  private static final String ACTION = "SendMessage";

  private final OwningShard owningShard;
  private final DeployedShards shards;

  /** Runs a function on every shard deployed on this node, each in its own turn; answers what each gave. */
  interface DeployedShards {
    <T> Future<List<T>> onEach(Function<Shard, T> fn);
  }

  RelayActions(OwningShard owningShard, DeployedShards shards) {
    this.owningShard = owningShard;
    this.shards = shards;
  }

  /**
   * Sends the rows in order, each validated as a SendMessage; a row refused for itself is answered
   * so and the rest still go. The queue's absence or the caller's lack of permission fail it whole.
   */
  public Future<RelaySend.Response> send(Caller c, RelaySend.Request r) {
    String senderId = c.senderId();
    List<NewMessage> messages = r.entries().stream()
        .map(e -> new NewMessage(e.messageBody(), e.delaySeconds(), e.messageAttributes(), null,
            e.messageDeduplicationId(), e.messageGroupId(), senderId, null))
        .toList();
    return owningShard.onQueueUrlCommitted(c, ACTION, r.queueUrl(), (s, q) -> {
      q.relayReceipts().admitEpoch(r.source(), r.epoch());
      s.admitSends();
      return sendAll(s, q, r, messages);
    });
  }

  /**
   * Sends the entries in order. In a FIFO queue, a row refused for now holds back the later rows of
   * its group in this call (answered refused for now too, not sent), so the relay sends them again
   * after it and the group keeps its order; a row refused for good is set aside and does not.
   */
  private static RelaySend.Response sendAll(Shard s, QueueState q, RelaySend.Request r, List<NewMessage> messages) {
    long now = s.now();
    boolean fifo = q.attributes().fifo();
    Set<String> heldBack = new HashSet<>();
    List<RelaySend.Result> results = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      long rowId = r.entries().get(i).rowId();
      String group = messages.get(i).groupId();
      if (fifo && group != null && heldBack.contains(group)) {
        results.add(new RelaySend.Result(rowId, null, false, ErrorCode.SERVICE_UNAVAILABLE.queryCode(),
            "An earlier row of message group " + group + " was not sent; this one follows it later.", false));
        continue;
      }
      try {
        RelayReceipts.Relayed sent = q.relayReceipts().relay(r.source(), rowId, messages.get(i), now);
        results.add(new RelaySend.Result(rowId, sent.messageId(), sent.duplicate(), null, null, false));
      } catch (SqsException e) {
        boolean forGood = rowAtFault(e.code());
        if (!forGood && group != null) {
          heldBack.add(group);
        }
        results.add(new RelaySend.Result(rowId, null, false, e.code().queryCode(), e.getMessage(), forGood));
      }
    }
    return new RelaySend.Response(results);
  }

  /**
   * Whether a send refused with {@code code} is refused for the row itself, for good: the row is
   * set aside rather than tried again. Throttling, a queue deleted a moment ago, an unavailable
   * store and the like pass; a bad row or a queue that does not exist (or may not be sent to) do not.
   */
  public static boolean rowAtFault(ErrorCode code) {
    return switch (code) {
      case QUEUE_DOES_NOT_EXIST, INVALID_PARAMETER_VALUE, MISSING_PARAMETER, INVALID_ATTRIBUTE_NAME,
          INVALID_ATTRIBUTE_VALUE, INVALID_MESSAGE_CONTENTS, UNSUPPORTED_OPERATION, ACCESS_DENIED -> true;
      default -> false;
    };
  }

  /**
   * Whether a whole relay call failed for its rows' own sake, for good (see {@link #rowAtFault(ErrorCode)}):
   * its queue or topic does not exist or may not be sent to, or it names a topic of a cluster
   * (InvalidAction: cluster mode serves no topics, and a row kept for it would be read again by
   * every round, ahead of the rows behind it, for as long as the cluster runs).
   */
  public static boolean rowAtFault(Throwable failure) {
    if (failure instanceof SqsException e) {
      return rowAtFault(e.code());
    }
    return failure instanceof SnsException e && switch (e.code()) {
      case NOT_FOUND, AUTHORIZATION_ERROR, INVALID_PARAMETER, INVALID_PARAMETER_VALUE, INVALID_ACTION -> true;
      default -> false;
    };
  }

  /** The rows have left the outbox: the queue forgets their receipts (durably, but not waited for). */
  public Future<Void> forget(Caller c, RelaySend.Forget r) {
    return owningShard.onQueueUrl(c, ACTION, r.queueUrl(), (s, q) -> {
      q.relayReceipts().admitEpoch(r.source(), r.epoch());
      q.relayReceipts().forget(r.source(), r.rowIds());
      return null;
    });
  }

  /**
   * The rows left the outbox: every queue of this node's shards forgets their receipts. For rows
   * published to a topic, whose copies' receipts are in the queues subscribed (topics are served
   * by one node, so they are all here); a queue that holds none of the source's receipts costs a
   * lookup.
   */
  public Future<Void> forgetHere(String source, long epoch, List<Long> rowIds) {
    return shards.onEach(s -> s.forgetRelayReceipts(source, epoch, rowIds)).mapEmpty();
  }

  /** The receipts of {@code source}'s rows that the queues of this node's shards hold. */
  public Future<List<RelaySend.Held>> heldHere(String source) {
    return shards.<List<RelaySend.Held>>onEach(s -> s.relayReceiptsOf(source))
        .map(perShard -> perShard.stream().flatMap(List::stream).toList());
  }
}
