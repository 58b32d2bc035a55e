package dev.sluice.model;

import dev.sluice.api.Limits;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.List;

/**
 * A standard queue: at-least-once, best-effort order. Visible messages wait in one list in send
 * order; a message whose visibility runs out goes back to the front, as it is older than the rest.
 * Owned by the shard event loop that owns the queue.
 */
public final class StandardQueueState extends QueueState {
  private final MessageList ready = new MessageList(MessageList.Links.READY);

  public StandardQueueState(ShardResources env, QueueMetadata metadata) {
    super(env, metadata);
  }

  @Override
  protected SendMessage.Response sendChecked(NewMessage m, boolean batchEntry, long payload, long nowMillis) {
    if (m.deduplicationId() != null) {
      throw SqsException.invalidValue(
          m.deduplicationId(), "MessageDeduplicationId",
          "The request includes a parameter that is not valid for this queue type.");
    }
    Integer delay = m.delaySeconds();
    if (delay != null && (delay < 0 || delay > Limits.DELAY_SECONDS_MAX)) {
      throw SqsException.invalidValue(delay, "DelaySeconds", "DelaySeconds must be >= 0 and <= 900.");
    }
    // An explicit 0 overrides the queue's delay too (sqs-reference §5.2).
    int delaySeconds = delay == null ? attributes().delaySeconds() : delay;
    return sent(store(m, payload, delaySeconds, null, 0, nowMillis), m);
  }

  @Override
  protected void addReady(Message m, boolean returning) {
    if (returning) {
      ready.addFirst(m);
    } else {
      ready.addLast(m);
    }
  }

  @Override
  protected void returnReceived(List<Message> received) {
    for (int i = received.size() - 1; i >= 0; i--) {
      ready.addFirst(received.get(i));
    }
  }

  @Override
  protected void forget(Message m) {
    if (m.state == MessageState.READY) {
      ready.remove(m);
    }
  }

  @Override
  protected int readyCount() {
    return ready.size();
  }

  @Override
  protected void takeReceivable(int max, List<Message> out) {
    for (int i = 0; i < max && !ready.isEmpty(); i++) {
      out.add(ready.pollFirst());
    }
  }

  @Override
  protected boolean hasReceivable() {
    return !ready.isEmpty();
  }

  @Override
  protected void clearReady() {
    ready.clear();
  }

  /** Standard queues honour any handle of a live message, even from an earlier receive (§2.11). */
  @Override
  protected void checkReceiptCurrent(Message m, ReceiptHandleCodec.Receipt r, String handle, boolean delete) {}
}
