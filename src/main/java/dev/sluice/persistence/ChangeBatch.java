package dev.sluice.persistence;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The changes of one write-behind window, coalesced (src/site/markdown/durability.md, "Tables"): a message sent
 * and deleted in
 * the same window writes nothing, a send followed by receives is one insert of its latest state,
 * any number of receives or visibility changes is one update, a queue's row is written once with
 * its latest state, and a purge or deletion drops the window's earlier changes to the queue's
 * messages. Pure; owned
 * by the one writer that fills and flushes it.
 */
public final class ChangeBatch {
  private sealed interface Pending permits Insert, Update, Delete {}

  private record Insert(MessageRow row) implements Pending {}

  private record Update(DeliveryState state) implements Pending {}

  private record Delete() implements Pending {}

  private static final Delete DELETE = new Delete();

  private final Map<MessageRef, Pending> pending = new LinkedHashMap<>();
  /** Queue rows to write, by id (the latest state wins). */
  private final Map<Long, QueueRow> queues = new LinkedHashMap<>();
  /** Queues whose messages all go before this batch's own messages are written. */
  private final List<Long> purged = new ArrayList<>();
  private final List<Long> deletedQueues = new ArrayList<>();
  /** Per queue, the highest place in delivery order of a message received in this batch. */
  private final Map<Long, Frontier> frontiers = new LinkedHashMap<>();
  /** FIFO deduplication entries, by queue and key (the latest wins). */
  private final Map<String, DedupRow> dedup = new LinkedHashMap<>();
  /**
   * Outbox receipts, by queue, source and row: recorded (a row) or forgotten (null). A receipt
   * recorded and forgotten in one batch writes nothing.
   */
  private final Map<RelayReceiptKey, RelayReceiptRow> relayReceipts = new LinkedHashMap<>();

  private record RelayReceiptKey(long queueId, String source, long rowId) {}
  private int events;

  public void deduplicationRemembered(DedupRow row) {
    events++;
    dedup.put(row.queueId() + ":" + row.dedupKey(), row);
  }

  public void relayReceiptRecorded(RelayReceiptRow row) {
    events++;
    relayReceipts.put(new RelayReceiptKey(row.queueId(), row.source(), row.rowId()), row);
  }

  public void relayReceiptForgotten(long queueId, String source, long rowId) {
    events++;
    RelayReceiptKey key = new RelayReceiptKey(queueId, source, rowId);
    if (relayReceipts.get(key) != null) {
      relayReceipts.remove(key); // never written, never to be
    } else {
      relayReceipts.put(key, null);
    }
  }

  public void queueSaved(QueueRow row) {
    events++;
    queues.put(row.id(), row);
  }

  /**
   * Every message of the queue is gone (PurgeQueue): the batch's earlier changes to them are
   * dropped, and the purge is written before the messages stored after it.
   */
  public void queuePurged(long queueId) {
    events++;
    pending.keySet().removeIf(ref -> ref.queueId() == queueId);
    // a purge clears the history too (AWS API reference: PurgeQueue)
    dedup.values().removeIf(d -> d.queueId() == queueId);
    purged.add(queueId);
  }

  /** The queue and everything in it is gone: nothing of it is written but the deletion. */
  public void queueDeleted(long queueId) {
    events++;
    pending.keySet().removeIf(ref -> ref.queueId() == queueId);
    dedup.values().removeIf(d -> d.queueId() == queueId);
    relayReceipts.keySet().removeIf(k -> k.queueId() == queueId);
    queues.remove(queueId);
    purged.remove(queueId);
    frontiers.remove(queueId);
    deletedQueues.add(queueId);
  }

  /**
   * A message of the queue at place ({@code major}, {@code minor}) in its delivery order was
   * received: the queue's persisted frontier rises to it, in the same write as the receive.
   */
  public void received(long queueId, long major, long minor) {
    Frontier next = new Frontier(queueId, major, minor);
    frontiers.merge(queueId, next, (a, b) -> a.compareTo(b) >= 0 ? a : b);
  }

  public void stored(MessageRow row) {
    events++;
    pending.put(new MessageRef(row.queueId(), row.messageKey()), new Insert(row));
  }

  public void changed(DeliveryState state) {
    events++;
    MessageRef ref = new MessageRef(state.queueId(), state.messageKey());
    Pending before = pending.get(ref);
    if (before instanceof Insert insert) {
      pending.put(ref, new Insert(insert.row().with(state)));
    } else if (!(before instanceof Delete)) {
      pending.put(ref, new Update(state));
    }
  }

  public void deleted(long queueId, long messageKey) {
    events++;
    MessageRef ref = new MessageRef(queueId, messageKey);
    if (pending.get(ref) instanceof Insert) {
      pending.remove(ref); // never written, never to be
    } else {
      pending.put(ref, DELETE);
    }
  }

  /**
   * True when this batch changes queues (rows, purges, deletions): such a batch is written alone,
   * after every earlier one has committed and before any later one starts, so that no message row
   * commits before its queue's row and no purge misses a message still being inserted.
   */
  public boolean changesQueues() {
    return !queues.isEmpty() || !purged.isEmpty() || !deletedQueues.isEmpty();
  }

  /** The messages this batch writes (inserts, updates or deletes). */
  Set<MessageRef> messageRefs() {
    return new HashSet<>(pending.keySet());
  }

  /**
   * True when this batch writes a message that {@code running} (the batches still being written)
   * writes too: it must wait for them. An update or delete would not see a row whose insert has not
   * committed (relaxed durability lets a message be received and deleted that early), and two
   * batches changing the same rows could deadlock or, after a failed attempt, commit out of order.
   */
  boolean touchesAny(Set<MessageRef> running) {
    if (running.isEmpty()) {
      return false;
    }
    for (MessageRef ref : pending.keySet()) {
      if (running.contains(ref)) {
        return true;
      }
    }
    return false;
  }

  /** Events taken in, before coalescing. */
  public int events() {
    return events;
  }

  public boolean isEmpty() {
    return pending.isEmpty() && queues.isEmpty() && purged.isEmpty() && deletedQueues.isEmpty() && dedup.isEmpty()
        && frontiers.isEmpty() && relayReceipts.isEmpty();
  }

  /**
   * Sorted by queue and key, so that batches written at once lock deduplication rows in the same
   * order and cannot deadlock.
   */
  public List<DedupRow> deduplication() {
    List<DedupRow> out = new ArrayList<>(dedup.values());
    out.sort(java.util.Comparator.comparingLong(DedupRow::queueId).thenComparing(DedupRow::dedupKey));
    return out;
  }

  /** The outbox receipts this batch records. */
  public List<RelayReceiptRow> relayReceiptsRecorded() {
    List<RelayReceiptRow> out = new ArrayList<>();
    relayReceipts.values().forEach(r -> {
      if (r != null) {
        out.add(r);
      }
    });
    return out;
  }

  /** The outbox receipts this batch deletes (only queue, source and row are set). */
  public List<RelayReceiptRow> relayReceiptsForgotten() {
    List<RelayReceiptRow> out = new ArrayList<>();
    relayReceipts.forEach((k, r) -> {
      if (r == null) {
        out.add(new RelayReceiptRow(k.queueId(), k.source(), k.rowId(), null));
      }
    });
    return out;
  }

  /** The frontier each queue reaches in this batch, one per queue. */
  public List<Frontier> frontiers() {
    return List.copyOf(frontiers.values());
  }

  public List<QueueRow> queueRows() {
    return List.copyOf(queues.values());
  }

  public List<Long> purgedQueues() {
    return List.copyOf(purged);
  }

  public List<Long> deletedQueues() {
    return List.copyOf(deletedQueues);
  }

  public List<MessageRow> inserts() {
    List<MessageRow> out = new ArrayList<>();
    pending.values().forEach(p -> {
      if (p instanceof Insert i) {
        out.add(i.row());
      }
    });
    return out;
  }

  public List<DeliveryState> updates() {
    List<DeliveryState> out = new ArrayList<>();
    pending.values().forEach(p -> {
      if (p instanceof Update u) {
        out.add(u.state());
      }
    });
    return out;
  }

  /** (queue id, message key) pairs to delete, as two parallel arrays. */
  public long[][] deletes() {
    List<MessageRef> refs = new ArrayList<>();
    pending.forEach((ref, p) -> {
      if (p instanceof Delete) {
        refs.add(ref);
      }
    });
    long[][] out = new long[2][refs.size()];
    for (int i = 0; i < refs.size(); i++) {
      out[0][i] = refs.get(i).queueId();
      out[1][i] = refs.get(i).messageKey();
    }
    return out;
  }
}
