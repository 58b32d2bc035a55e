package dev.sluice.engine;

import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.Caller;
import dev.sluice.api.ChangeMessageVisibility;
import dev.sluice.api.ChangeMessageVisibilityBatch;
import dev.sluice.api.DeleteMessage;
import dev.sluice.api.DeleteMessageBatch;
import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/** DeleteMessage and ChangeMessageVisibility, single and batched, by receipt handle. */
public final class ReceiptActions {
  private static final Predicate<QueueState> IS_FIFO = q -> q.attributes().fifo();

  private final OwningShard owningShard;

  ReceiptActions(OwningShard owningShard) {
    this.owningShard = owningShard;
  }

  public Future<Void> deleteMessage(Caller c, DeleteMessage.Request r) {
    String handle = required(r.receiptHandle(), "ReceiptHandle");
    // A FIFO delete must survive a crash, or the message would come back out of its exactly-once
    // window: under durability commit it is answered once committed. Standard deletes are written
    // behind (a lost one is a redelivery, which at-least-once allows).
    return owningShard.onQueueUrlDurably(c, "DeleteMessage", r.queueUrl(), (s, q) -> {
      q.delete(handle, s.now());
      return null;
    }, IS_FIFO);
  }

  public Future<Void> changeMessageVisibility(Caller c, ChangeMessageVisibility.Request r) {
    String handle = required(r.receiptHandle(), "ReceiptHandle");
    int seconds = visibility(r.visibilityTimeout());
    return owningShard.onQueueUrl(c, "ChangeMessageVisibility", r.queueUrl(), (s, q) -> {
      q.changeVisibility(handle, seconds, s.now());
      return null;
    });
  }

  public Future<BatchIdsResponse> deleteMessageBatch(Caller c, DeleteMessageBatch.Request r) {
    List<DeleteMessageBatch.Entry> entries = r.entries();
    BatchRules.checkEntryIds(entries, DeleteMessageBatch.Entry::id, "DeleteMessageBatchRequestEntry");
    return owningShard.onQueueUrlDurably(c, "DeleteMessageBatch", r.queueUrl(), (s, q) -> each(entries,
        DeleteMessageBatch.Entry::id, e -> {
      q.delete(required(e.receiptHandle(), "ReceiptHandle"), s.now());
    }), IS_FIFO);
  }

  public Future<BatchIdsResponse> changeMessageVisibilityBatch(Caller c, ChangeMessageVisibilityBatch.Request r) {
    List<ChangeMessageVisibilityBatch.Entry> entries = r.entries();
    BatchRules.checkEntryIds(
        entries, ChangeMessageVisibilityBatch.Entry::id, "ChangeMessageVisibilityBatchRequestEntry");
    return owningShard.onQueueUrl(c, "ChangeMessageVisibilityBatch", r.queueUrl(),
        (s, q) -> each(entries, ChangeMessageVisibilityBatch.Entry::id, e -> q.changeVisibility(
            required(e.receiptHandle(), "ReceiptHandle"), visibility(e.visibilityTimeout()), s.now())));
  }

  /** Applies the action to every entry; an entry's SQS error becomes its Failed entry. */
  private static <E> BatchIdsResponse each(
      List<E> entries, Function<E, String> id, Consumer<E> action) {
    List<String> ok = new ArrayList<>(entries.size());
    List<BatchResultErrorEntry> failed = new ArrayList<>();
    for (E e : entries) {
      try {
        action.accept(e);
        ok.add(id.apply(e));
      } catch (SqsException ex) {
        failed.add(BatchResultErrorEntry.of(id.apply(e), ex));
      }
    }
    return new BatchIdsResponse(ok, failed);
  }

  private static String required(String value, String parameter) {
    if (value == null || value.isEmpty()) {
      throw SqsException.missingParameter(parameter);
    }
    return value;
  }

  private static int visibility(Integer seconds) {
    if (seconds == null) {
      throw SqsException.missingParameter("VisibilityTimeout");
    }
    if (seconds < 0 || seconds > Limits.VISIBILITY_SECONDS_MAX) {
      throw SqsException.invalidValue(
          seconds, "VisibilityTimeout", "VisibilityTimeout must be an integer between 0 and 43200.");
    }
    return seconds;
  }
}
