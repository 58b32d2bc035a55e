package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.ReceiveMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What queues tell the durable store, and sends held until their write commits. */
class ChangeLogTest {
  /** Records every change as a line, and the messages stored, in order. */
  static final class Recording implements ChangeLog {
    final boolean holds;
    final List<String> lines = new ArrayList<>();
    final List<Message> stored = new ArrayList<>();
    /** Each stored message's body as it was stored: a message gone has no content to read. */
    final Map<Message, String> bodies = new java.util.IdentityHashMap<>();

    Recording(boolean holds) {
      this.holds = holds;
    }

    @Override
    public boolean holdsSendsUntilCommitted() {
      return holds;
    }

    @Override
    public void queueSaved(QueueState q) {
      lines.add("saved " + q.name());
    }

    @Override
    public void queueDeleted(QueueState q) {
      lines.add("deleted " + q.name());
    }

    @Override
    public void queuePurged(QueueState q) {
      lines.add("purged " + q.name());
    }

    @Override
    public void messageStored(MessageStore q, Message m) {
      stored.add(m);
      bodies.put(m, m.body());
      lines.add("stored " + bodies.get(m));
    }

    @Override
    public void messageChanged(MessageStore q, Message m) {
      lines.add("changed " + m.body() + " count " + m.receiveCount());
    }

    @Override
    public void messageDeleted(MessageStore q, Message m) {
      lines.add("deleted " + m.body());
    }

    @Override
    public void deduplicationRemembered(MessageStore q, String key, Message m, long expiresAtMillis) {
      lines.add("dedup " + key);
    }

    @Override
    public void relayReceiptRecorded(QueueState q, String source, long rowId, String messageId) {
      lines.add("relayed " + source + ":" + rowId);
    }

    @Override
    public void relayReceiptsForgotten(QueueState q, String source, List<Long> rowIds) {
      lines.add("forgotten " + source + ":" + rowIds);
    }
  }

  @Test
  void everyChangeOfAQueueAndItsMessagesIsLogged() {
    Recording log = new Recording(false);
    ShardFixture shard = new ShardFixture(log);
    QueueState q = shard.create("orders", Map.of());
    q.send(message("a"), false, shard.now);
    ReceiveMessage.Message got = q.receive(spec(1, 30), shard.now).get(0);
    q.changeVisibility(got.receiptHandle(), 60, shard.now);
    q.delete(got.receiptHandle(), shard.now);
    q.setAttributes(Map.of("DelaySeconds", "1"), shard.now);
    q.send(message("b"), false, shard.now);
    q.purge(shard.now);
    shard.registry.delete("orders", shard.now);
    assertEquals(List.of("saved orders", "stored a", "changed a count 1", "changed a count 1", "deleted a",
        "saved orders", "stored b", "purged orders", "deleted orders"), log.lines);
  }

  @Test
  void aRetriedFifoReceiveLogsTheVisibilityItStartsAgain() {
    Recording log = new Recording(false);
    ShardFixture shard = new ShardFixture(log);
    QueueState q = shard.create("orders.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
    q.send(new NewMessage("a", null, null, null, null, "g", "sender", null), false, shard.now);
    ReceiveSpec attempt = new ReceiveSpec(1, 30, spec(1, 30).selection(), "attempt-1");
    q.receive(attempt, shard.now);
    log.lines.clear();
    shard.advance(10_000);
    assertEquals("a", q.receive(attempt, shard.now).get(0).body(), "the retry returns the same message");
    assertEquals(List.of("changed a count 1"), log.lines, "and its new deadline is written, as a receive's is");
  }

  @Test
  void underCommitDurabilityASendIsReceivableOnlyOnceCommitted() {
    Recording log = new Recording(true);
    ShardFixture shard = new ShardFixture(log);
    QueueState q = shard.create("orders", Map.of());
    q.send(message("a"), false, shard.now);
    assertEquals(List.of(), q.receive(spec(1, 30), shard.now));
    assertEquals(0, q.approximateNumberOfMessages(shard.now));
    ShardFixture.Recorder waiting = new ShardFixture.Recorder(spec(1, 30));
    q.park(waiting.waiter, shard.now + 20_000);
    q.commitPending(log.stored.get(0), shard.now);
    assertEquals("a", waiting.completions.get(0).get(0).body());
  }

  @Test
  void aCommittedDelayCountsFromTheSendAndAPurgedPendingMessageStaysGone() {
    Recording log = new Recording(true);
    ShardFixture shard = new ShardFixture(log);
    long before = shard.budget.usedBytes();
    QueueState q = shard.create("orders", Map.of("DelaySeconds", "5"));
    q.send(message("late"), false, shard.now);
    shard.advance(2_000);
    q.commitPending(log.stored.get(0), shard.now);
    assertEquals(1, q.approximateNumberOfMessagesDelayed(shard.now));
    shard.advance(3_000);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    q.purge(shard.now);
    q.send(message("purged"), false, shard.now);
    shard.advance(61_000);
    q.purge(shard.now);
    q.commitPending(log.stored.get(1), shard.now);
    shard.advance(10_000);
    assertEquals(0, q.approximateNumberOfMessages(shard.now) + q.approximateNumberOfMessagesDelayed(shard.now));
    assertEquals(before, shard.budget.usedBytes());
  }

  @Test
  void pendingFifoMessagesHoldTheirPlaceInTheirGroup() {
    Recording log = new Recording(true);
    ShardFixture shard = new ShardFixture(log);
    QueueState q = shard.create("orders.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
    for (String b : List.of("m1", "m2")) {
      q.send(new NewMessage(b, null, null, null, null, "g", "s", null), false, shard.now);
    }
    q.commitPending(log.stored.get(1), shard.now); // m2's write commits first
    assertEquals(List.of(), q.receive(spec(10, 30), shard.now));
    q.commitPending(log.stored.get(0), shard.now);
    assertEquals(List.of("m1", "m2"),
        q.receive(spec(10, 30), shard.now).stream().map(ReceiveMessage.Message::body).toList());
  }
}
