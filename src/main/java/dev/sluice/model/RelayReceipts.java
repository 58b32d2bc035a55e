package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Owned by the shard event loop that owns its queue: which outbox rows the queue has stored a
 * message for (src/site/markdown/outbox.md), by source and row id, with the message's id.
 *
 * <p>This is what makes a relayed row one message however often it is sent: the receipt is logged
 * in the same change as the message, so the durable store commits both or neither, and a row sent
 * again after a crash (stored here, but still in the outbox) answers its first message's id and
 * stores nothing. Receipts live from a row's send until the relay has deleted the row from its
 * outbox and says so ({@link #forget}); so they are few, about the rows of the relay batches in
 * flight, plus any a crash left behind until the relay reconciles them.
 */
public final class RelayReceipts {
  /** A row's send: the message's id, and whether the row had been sent before. */
  public record Relayed(String messageId, boolean duplicate) {}

  private final QueueState queue;
  private final ChangeLog changes;
  /** Message ids by source, then row id. */
  private final Map<String, Map<Long, String>> bySource = new HashMap<>();
  /** The highest relay epoch (fencing token) seen of each source. */
  private final Map<String, Long> epochs = new HashMap<>();
  private int count;

  RelayReceipts(QueueState queue, ChangeLog changes) {
    this.queue = queue;
    this.changes = changes;
  }

  /**
   * Refuses a call of a relay whose lease was taken over ({@code epoch} below the highest seen of
   * {@code source}): ServiceUnavailable, which it takes as a lost lease. Else the epoch is the
   * highest from now on. Not persisted: a restart forgets the epochs, and a relay's call delayed
   * across a restart of the queue's shard is not fenced (the new holder's receipts still are).
   */
  public void admitEpoch(String source, long epoch) {
    Long highest = epochs.get(source);
    if (highest != null && epoch < highest) {
      throw new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "The relay of outbox " + source + " at epoch " + epoch
          + " lost its lease: epoch " + highest + " holds it.");
    }
    epochs.put(source, epoch);
  }

  /**
   * Sends row {@code rowId} of {@code source} as {@code m}, validated as a SendMessage, unless the
   * queue has stored it already; a refused row (an SqsException) leaves no receipt. The caller has
   * admitted the relay's epoch.
   */
  public Relayed relay(String source, long rowId, NewMessage m, long nowMillis) {
    String before = messageIdOf(source, rowId);
    if (before != null) {
      return new Relayed(before, true);
    }
    SendMessage.Response sent = queue.send(m, false, nowMillis);
    put(source, rowId, sent.messageId());
    changes.relayReceiptRecorded(queue, source, rowId, sent.messageId());
    return new Relayed(sent.messageId(), false);
  }

  /** The rows have left their outbox: nothing can send them again. */
  public void forget(String source, List<Long> rowIds) {
    Map<Long, String> rows = bySource.get(source);
    if (rows == null) {
      return;
    }
    List<Long> gone = new ArrayList<>(rowIds.size());
    for (Long id : rowIds) {
      if (rows.remove(id) != null) {
        gone.add(id);
        count--;
      }
    }
    if (rows.isEmpty()) {
      bySource.remove(source);
    }
    if (!gone.isEmpty()) {
      changes.relayReceiptsForgotten(queue, source, gone);
    }
  }

  /**
   * The write of message {@code messageId} failed for good: the receipt written with it failed
   * too, and the row must be sent again rather than answered as sent. Rare, so found by a scan.
   */
  public void messageLost(String messageId) {
    for (Map<Long, String> rows : bySource.values()) {
      if (rows.values().removeIf(messageId::equals)) {
        count = bySource.values().stream().mapToInt(Map::size).sum();
      }
    }
    bySource.values().removeIf(Map::isEmpty);
  }

  /** A receipt from the durable store (start-up). */
  public void restore(String source, long rowId, String messageId) {
    put(source, rowId, messageId);
  }

  /** The rows of {@code source} this queue holds receipts of, in no particular order. */
  public List<Long> heldRows(String source) {
    Map<Long, String> rows = bySource.get(source);
    return rows == null ? List.of() : new ArrayList<>(rows.keySet());
  }

  /** Whether this queue holds a receipt of a row of {@code source}. */
  public boolean holds(String source) {
    return bySource.containsKey(source);
  }

  /** The message id row {@code rowId} of {@code source} was stored as, or null. */
  public String messageIdOf(String source, long rowId) {
    Map<Long, String> rows = bySource.get(source);
    return rows == null ? null : rows.get(rowId);
  }

  public int count() {
    return count;
  }

  private void put(String source, long rowId, String messageId) {
    if (bySource.computeIfAbsent(source, s -> new HashMap<>()).put(rowId, messageId) == null) {
      count++;
    }
  }
}
