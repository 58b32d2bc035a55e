package dev.sluice.engine;

import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.Caller;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SendMessageBatch;
import dev.sluice.api.SqsException;
import dev.sluice.model.NewMessage;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/** SendMessage and SendMessageBatch: validated and enqueued by the shard that owns the queue. */
public final class SendActions {
  private final OwningShard owningShard;

  SendActions(OwningShard owningShard) {
    this.owningShard = owningShard;
  }

  public Future<SendMessage.Response> sendMessage(Caller c, SendMessage.Request r) {
    NewMessage m = new NewMessage(
        r.messageBody(), r.delaySeconds(), r.messageAttributes(), r.messageSystemAttributes(),
        r.messageDeduplicationId(), r.messageGroupId(), c.senderId(), c.traceHeader());
    return owningShard.onQueueUrlDurably(c, "SendMessage", r.queueUrl(), (s, q) -> {
      s.admitSends();
      return q.send(m, false, s.now());
    });
  }

  public Future<SendMessageBatch.Response> sendMessageBatch(Caller c, SendMessageBatch.Request r) {
    List<SendMessageBatch.Entry> entries = r.entries();
    BatchRules.checkEntryIds(entries, SendMessageBatch.Entry::id, "SendMessageBatchRequestEntry");
    String senderId = c.senderId();
    String traceHeader = c.traceHeader();
    List<NewMessage> messages = entries.stream()
        .map(e -> new NewMessage(
            e.messageBody(), e.delaySeconds(), e.messageAttributes(), e.messageSystemAttributes(),
            e.messageDeduplicationId(), e.messageGroupId(), senderId, traceHeader))
        .toList();
    return owningShard.onQueueUrlDurably(c, "SendMessageBatch", r.queueUrl(), (s, q) -> {
      // whole-request rules, which depend on the queue type (AWS API reference: SendMessageBatch)
      q.checkBatch(messages);
      s.admitSends();
      return sendAll(s, q, entries, messages);
    });
  }

  private static SendMessageBatch.Response sendAll(
      Shard s, QueueState q, List<SendMessageBatch.Entry> entries, List<NewMessage> messages) {
    long now = s.now();
    List<SendMessageBatch.ResultEntry> ok = new ArrayList<>(entries.size());
    List<BatchResultErrorEntry> failed = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      String id = entries.get(i).id();
      try {
        SendMessage.Response sent = q.send(messages.get(i), true, now);
        ok.add(new SendMessageBatch.ResultEntry(
            id, sent.messageId(), sent.md5OfMessageBody(), sent.md5OfMessageAttributes(),
            sent.md5OfMessageSystemAttributes(), sent.sequenceNumber()));
      } catch (SqsException e) {
        failed.add(BatchResultErrorEntry.of(id, e));
      }
    }
    return new SendMessageBatch.Response(ok, failed);
  }
}
