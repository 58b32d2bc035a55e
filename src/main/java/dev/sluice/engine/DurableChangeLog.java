package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.ChangeLog;
import dev.sluice.model.Message;
import dev.sluice.model.MessageState;
import dev.sluice.model.MessageStore;
import dev.sluice.model.QueueState;
import dev.sluice.model.JsonText;
import dev.sluice.persistence.BatchWriter;
import dev.sluice.persistence.ChangeBatch;
import dev.sluice.persistence.DedupRow;
import dev.sluice.persistence.DeliveryState;
import dev.sluice.persistence.MessageRow;
import dev.sluice.persistence.PersistenceVerticle;
import dev.sluice.persistence.QueueRow;
import dev.sluice.persistence.RelayReceiptRow;
import dev.sluice.persistence.ShardFence;
import dev.sluice.runtime.EventLoops;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One shard's {@link ChangeLog} in durable mode: the changes of one shard call are captured as
 * rows (snapshots taken on the shard's loop, so the writer never reads live model state) and
 * handed to the {@link PersistenceVerticle} as one submission when the call ends, or earlier by
 * {@link #flush} when a send must wait for its commit. Owned by its shard's event loop.
 */
final class DurableChangeLog implements ChangeLog {
  private final Vertx vertx;
  private final PersistenceVerticle writer;
  private final boolean holdSends;
  private final long sendTimeoutMillis;
  private final long writerBacklogLimitBytes;
  /**
   * Paging on: every stored message is released once its write has committed or failed, whatever
   * the durability. A spilled row may be read back only once committed, and a resident one may be
   * left out of memory only then; a release that never came would stop page reads for good.
   */
  private final boolean paged;
  private List<Consumer<ChangeBatch>> ops = new ArrayList<>();
  /**
   * Messages stored pending in this call (paged: every message stored), released once their
   * submission has committed.
   */
  private List<Message> pending = new ArrayList<>();
  private List<MessageStore> pendingIn = new ArrayList<>();
  /** Bytes of message content in {@link #ops}, so the writer can bound a batch's size. */
  private long bytes;
  /** Submissions of this shard not yet committed, in submission order. */
  private final List<Future<Void>> uncommitted = new ArrayList<>();
  /** Cluster mode: the shard's lease epoch, which every submission carries; null: the database's fence. */
  private final ShardFence fence;
  /** Other shards' epochs the changes of this call must be fenced by too (a dead letter's source). */
  private Map<Integer, Long> alsoFencedBy;

  DurableChangeLog(Vertx vertx, PersistenceVerticle writer, boolean holdSends, long sendTimeoutMillis,
      long writerBacklogLimitBytes, boolean paged, ShardFence fence) {
    this.fence = fence;
    this.vertx = vertx;
    this.paged = paged;
    this.writerBacklogLimitBytes = writerBacklogLimitBytes;
    this.writer = writer;
    this.holdSends = holdSends;
    this.sendTimeoutMillis = sendTimeoutMillis;
  }

  /**
   * Sends are refused (the retryable RequestThrottled) while more message bytes than the limit wait
   * for PostgreSQL: it cannot keep up, and what waits is held in the heap until it has.
   */
  void admitSends() {
    long waiting = writer.pendingBytes();
    if (waiting > writerBacklogLimitBytes) {
      throw new SqsException(ErrorCode.REQUEST_THROTTLED, "PostgreSQL is " + waiting + " bytes of messages behind"
          + " (pg.maxWriterBacklogBytes: " + writerBacklogLimitBytes + "); retry once it has caught up.");
    }
  }

  @Override
  public boolean holdsSendsUntilCommitted() {
    return holdSends;
  }

  /**
   * The queue's row, with its FIFO delay rule: a DelaySeconds change reschedules the rows not in
   * memory through that rule alone, so it must survive a restart with the attributes; and its
   * redelivery backoff, which is no attribute.
   */
  @Override
  public void queueSaved(QueueState q) {
    QueueKey key = q.metadata().key();
    QueueRow row = new QueueRow(q.metadata().generation(), key.accountId(), key.region(), key.name(),
        q.metadata().createdAtMillis(), q.metadata().lastModifiedAtMillis(), JsonText.write(q.attributes().stored()),
        JsonText.write(q.metadata().tags()), q.delayReleasedThroughMillis(), q.delayChangedAtMillis(),
        q.metadata().redeliveryBackoff() == null ? null : q.metadata().redeliveryBackoff().toJson());
    ops.add(b -> b.queueSaved(row));
  }

  @Override
  public void queueDeleted(QueueState q) {
    long id = q.metadata().generation();
    ops.add(b -> b.queueDeleted(id));
  }

  @Override
  public void queuePurged(QueueState q) {
    long id = q.metadata().generation();
    ops.add(b -> b.queuePurged(id));
  }

  @Override
  public void messageStored(MessageStore q, Message m) {
    // Copied here, on the shard's loop, from the record's format version 1 bytes (no encoding), so
    // the one writer loop only gathers rows.
    byte[] content = m.encodedContent();
    MessageRow row = new MessageRow(q.metadata().generation(), m.key(), m.messageUuid(), m.sentAtMillis(),
        m.sequenceNumber(), m.visibleAtMillis(), m.receiveCount(), m.firstReceiveAtMillis(), m.receiptSequence(),
        m.firstVisibleAtMillis(), m.arrival().code(), content, m.inBackoff());
    bytes += content.length;
    ops.add(b -> b.stored(row));
    if (m.originQueueId() != 0) {
      // A moved message: its old row goes in the same write as its new one.
      long originQueue = m.originQueueId();
      long originKey = m.originKey();
      ops.add(b -> b.deleted(originQueue, originKey));
      m.originWritten();
    }
    if (paged || holdSends && m.state() == MessageState.PENDING) {
      pending.add(m);
      pendingIn.add(q);
    }
  }

  @Override
  public void messageChanged(MessageStore q, Message m) {
    DeliveryState state = new DeliveryState(q.metadata().generation(), m.key(), m.visibleAtMillis(),
        m.receiveCount(), m.firstReceiveAtMillis(), m.receiptSequence(), m.inBackoff());
    if (m.receiveCount() == 0) {
      ops.add(b -> b.changed(state)); // a FIFO delay rescheduled: not a receive
      return;
    }
    // Its place in delivery order (FIFO: by sequence number): the queue's persisted frontier rises
    // to it in the same write, so a start-up that loads the rows up to the frontier finds it.
    long major = q.metadata().attributes().fifo() ? m.sequenceNumber() : m.firstVisibleAtMillis();
    long minor = m.key();
    ops.add(b -> {
      b.changed(state);
      b.received(state.queueId(), major, minor);
    });
  }

  @Override
  public void messageDeleted(MessageStore q, Message m) {
    long id = q.metadata().generation();
    long key = m.key();
    ops.add(b -> b.deleted(id, key));
  }

  @Override
  public void deduplicationRemembered(MessageStore q, String key, Message m, long expiresAtMillis) {
    DedupRow row = new DedupRow(q.metadata().generation(), key, m.messageUuid(), m.sequenceNumber(), expiresAtMillis);
    ops.add(b -> b.deduplicationRemembered(row));
  }

  @Override
  public void relayReceiptRecorded(QueueState q, String source, long rowId, String messageId) {
    RelayReceiptRow row = new RelayReceiptRow(q.metadata().generation(), source, rowId, UUID.fromString(messageId));
    ops.add(b -> b.relayReceiptRecorded(row));
  }

  @Override
  public void relayReceiptsForgotten(QueueState q, String source, List<Long> rowIds) {
    long id = q.metadata().generation();
    List<Long> rows = List.copyOf(rowIds);
    ops.add(b -> rows.forEach(rowId -> b.relayReceiptForgotten(id, source, rowId)));
  }

  /** Whether this is a cluster node's shard, whose writes its lease fences. */
  boolean clustered() {
    return fence != null;
  }

  /**
   * Cluster mode: what this call changes is written only while {@code shard} is still at
   * {@code epoch} too (a dead letter from another node's queue deletes a row of that shard).
   */
  void alsoFencedBy(int shard, long epoch) {
    if (fence == null) {
      throw new IllegalStateException("only a cluster node's shards fence by other shards");
    }
    if (alsoFencedBy == null) {
      alsoFencedBy = new HashMap<>();
    }
    alsoFencedBy.put(shard, epoch);
  }

  /**
   * Submits what this call changed so far; the future completes on the shard's loop once it has
   * committed, after the messages it stored pending have been released by {@code release}.
   */
  Future<Void> flush(Releaser release) {
    if (ops.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Consumer<ChangeBatch>> submitted = ops;
    List<Message> messages = pending;
    List<MessageStore> stores = pendingIn;
    ops = new ArrayList<>();
    pending = new ArrayList<>();
    pendingIn = new ArrayList<>();
    ShardFence fenced = fence;
    if (alsoFencedBy != null) {
      Map<Integer, Long> pairs = new HashMap<>(alsoFencedBy);
      pairs.put(fence.shard(0), fence.epoch(0));
      fenced = ShardFence.of(pairs);
      alsoFencedBy = null;
    }
    Future<Void> committed = writer.submit(fenced, b -> submitted.forEach(op -> op.accept(b)), submitted.size(),
        bytes);
    bytes = 0;
    uncommitted.removeIf(Future::isComplete);
    uncommitted.add(committed);
    if (messages.isEmpty()) {
      return committed;
    }
    // Transient failures are retried by the writer until they commit; a failure here is for good
    // (PostgreSQL refused the batch), and its pending messages were never acknowledged.
    return committed.onComplete((ok, failure) -> release.release(stores, messages, failure == null));
  }

  /**
   * {@link #flush}, bounded, for a call answered only once committed (a send, a queue change): fails
   * with the retryable ServiceUnavailable when the commit takes longer than pg.sendTimeoutMillis
   * (PostgreSQL down or slow), and with InternalFailure when PostgreSQL refuses it for good (a queue
   * change then stays in memory only). The changes stay submitted: once they commit, pending
   * messages are released all the same (at-least-once, never a false acknowledgment).
   */
  Future<Void> flushWithin(Releaser release) {
    // A call that changed nothing still answers for earlier changes: a FIFO duplicate is answered
    // with its original, a repeated FIFO delete with the first one, a repeated CreateQueue with the
    // queue made by the first, so each waits for what this shard submitted before it (batches
    // commit out of order: for all of it).
    return within(ops.isEmpty() ? earlierCommitted() : flush(release));
  }

  /**
   * {@link #flushWithin}, for a call that answers for earlier changes too even when it changed
   * something: an outbox relay's call, where a row answered as sent before may have been stored
   * by a write still under way, on another lane (batches commit out of order), or failed.
   */
  Future<Void> flushWithinAfterEarlier(Releaser release) {
    Future<Void> earlier = earlierCommitted(); // before this call's own submission joins them
    return within(ops.isEmpty() ? earlier : Future.all(earlier, flush(release)).mapEmpty());
  }

  /** {@code committed}, answered on the caller's loop, failed as flushWithin says. */
  private Future<Void> within(Future<Void> committed) {
    if (committed.succeeded()) {
      return committed; // nothing to wait for: no timer
    }
    Promise<Void> answer = EventLoops.promiseOnCaller();
    long timer = vertx.setTimer(sendTimeoutMillis, t -> answer.tryFail(new SqsException(
        ErrorCode.SERVICE_UNAVAILABLE, "The request could not be stored in time; it may still take effect"
            + " (a sent message may still be delivered). Retry the request.")));
    committed.onComplete((ok, failure) -> {
      vertx.cancelTimer(timer);
      if (failure == null) {
        answer.tryComplete();
      } else if (BatchWriter.fenced(failure)) {
        // Another server owns the database now: the client's retry belongs there.
        answer.tryFail(new SqsException(ErrorCode.SERVICE_UNAVAILABLE,
            "This server no longer owns its database; the message was not stored. Retry the request."));
      } else {
        answer.tryFail(new SqsException(ErrorCode.INTERNAL_FAILURE,
            "The request could not be stored: PostgreSQL refused it. A sent message was not accepted."));
      }
    });
    return answer.future();
  }

  /**
   * Completes once everything this shard submitted so far has been written or refused, whatever
   * the outcome: a shard being handed over waits for it before the next owner loads.
   */
  Future<Void> settled() {
    uncommitted.removeIf(Future::isComplete);
    return uncommitted.isEmpty() ? Future.succeededFuture()
        : Future.join(List.copyOf(uncommitted)).<Void>mapEmpty().otherwiseEmpty();
  }

  private Future<Void> earlierCommitted() {
    uncommitted.removeIf(Future::isComplete);
    return uncommitted.isEmpty() ? Future.succeededFuture() : Future.all(List.copyOf(uncommitted)).mapEmpty();
  }

  /**
   * As a shard call: makes messages whose write committed receivable, or drops those whose write
   * failed for good.
   */
  interface Releaser {
    void release(List<MessageStore> stores, List<Message> messages, boolean committed);
  }
}
