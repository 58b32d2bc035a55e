package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;

/**
 * DeleteMessage and ChangeMessageVisibility on one queue, by receipt handle: decoding the handle,
 * the queue type's check that it is current, then the change. Holds no state of its own; called on
 * the shard event loop that owns the queue.
 *
 * <p>A message waiting out its redelivery backoff is, to these, a message whose visibility has
 * expired: a visibility change has no effect, a delete with its last handle deletes it on a
 * standard queue and is refused as expired on a FIFO queue (as for a visible message).
 */
final class ReceiptChanges {
  private final ShardResources env;
  private final MessageStore store;
  private final QueueTypeRules rules;
  private final Receiving receiving;

  ReceiptChanges(ShardResources env, MessageStore store, QueueTypeRules rules, Receiving receiving) {
    this.env = env;
    this.store = store;
    this.rules = rules;
    this.receiving = receiving;
  }

  void delete(String handle, long nowMillis) {
    ReceiptHandleCodec.Receipt r = decode(handle);
    Message m = store.find(r.messageKey());
    if (m == null) {
      return; // already deleted: deleting again succeeds (AWS: DeleteMessage)
    }
    rules.checkReceiptCurrent(m, r, handle, true);
    store.remove(m);
    store.counters.countDelete();
    receiving.serveWaiters(nowMillis);
  }

  void changeVisibility(String handle, int seconds, long nowMillis) {
    ReceiptHandleCodec.Receipt r = decode(handle);
    Message m = store.find(r.messageKey());
    if (m == null) {
      throw SqsException.invalidValue(
          handle, "ReceiptHandle", "Message does not exist or is not available for visibility timeout change.");
    }
    rules.checkReceiptCurrent(m, r, handle, false);
    if (m.state() != MessageState.IN_FLIGHT) {
      // Visibility already expired (the message is visible, or in backoff): no effect (AWS:
      // ChangeMessageVisibility).
      return;
    }
    long visibleAt = nowMillis + seconds * 1000L;
    if (visibleAt - m.receivedAtMillis() > Limits.VISIBILITY_SECONDS_MAX * 1000L) {
      throw SqsException.invalidValue(
          seconds, "VisibilityTimeout",
          "Total VisibilityTimeout for the message is beyond the limit [43200 seconds]");
    }
    if (seconds == 0) {
      store.showNow(m, nowMillis);
    } else {
      store.hideUntil(m, visibleAt);
    }
  }

  private ReceiptHandleCodec.Receipt decode(String handle) {
    ReceiptHandleCodec.Receipt r = env.handles().decode(store.metadata().generation(), handle);
    if (r == null) {
      throw new SqsException(
          ErrorCode.RECEIPT_HANDLE_IS_INVALID,
          "The input receipt handle \"" + handle + "\" is not a valid receipt handle.");
    }
    return r;
  }
}
