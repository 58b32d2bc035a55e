package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ReceiveMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A restart in durable mode while a message waits out its backoff: its row, as the change log last
 * wrote it, brings it back in backoff until the same moment (not drawn again, not lost, counted as
 * delayed), and a row in flight draws its wait when its visibility runs out, as before the restart.
 */
class RedeliveryBackoffRestartTest {
  /** The rows a durable store would hold: each message's latest state, by key. */
  static final class Rows implements ChangeLog {
    final Map<Long, RestoredMessage> rows = new LinkedHashMap<>();

    @Override
    public boolean holdsSendsUntilCommitted() {
      return false;
    }

    @Override
    public void queueSaved(QueueState q) {}

    @Override
    public void queueDeleted(QueueState q) {}

    @Override
    public void queuePurged(QueueState q) {}

    @Override
    public void messageStored(MessageStore q, Message m) {
      rows.put(m.key(), FakeBacklogStore.snapshot(m));
    }

    @Override
    public void messageChanged(MessageStore q, Message m) {
      rows.put(m.key(), FakeBacklogStore.snapshot(m));
    }

    @Override
    public void messageDeleted(MessageStore q, Message m) {
      rows.remove(m.key());
    }

    @Override
    public void deduplicationRemembered(MessageStore q, String key, Message m, long expiresAtMillis) {}

    @Override
    public void relayReceiptRecorded(QueueState q, String source, long rowId, String messageId) {}

    @Override
    public void relayReceiptsForgotten(QueueState q, String source, java.util.List<Long> rowIds) {}
  }

  final RedeliveryBackoff policy = new RedeliveryBackoff(30, 30);

  QueueState restarted(ShardFixture before, Rows rows, ShardFixture after) {
    after.now = before.now;
    QueueState q = after.create("q", Map.of());
    q.restoreRedeliveryBackoff(policy);
    q.drawBackoffFrom(new SplittableRandom(3));
    for (RestoredMessage r : rows.rows.values()) {
      q.restore(r, after.now);
    }
    return q;
  }

  @Test
  void aMessageInBackoffComesBackInBackoffUntilTheSameMoment() {
    Rows rows = new Rows();
    ShardFixture before = new ShardFixture(rows);
    QueueState q = before.create("q", Map.of());
    q.setRedeliveryBackoff(policy);
    q.drawBackoffFrom(new SplittableRandom(9));
    q.send(message("m"), false, before.now);
    q.receive(spec(1, 1), before.now);
    before.advance(1_000);
    assertEquals(1, q.messagesInBackoff());
    RestoredMessage row = rows.rows.values().iterator().next();
    assertTrue(row.inBackoff(), "the backoff's start is written");
    long visibleAt = row.visibleAtMillis();
    assertTrue(visibleAt > before.now);
    before.advance(500);

    ShardFixture after = new ShardFixture();
    QueueState back = restarted(before, rows, after);
    assertEquals(1, back.messagesInBackoff());
    assertEquals(1, back.approximateNumberOfMessagesDelayed(after.now));
    assertEquals(0, back.approximateNumberOfMessagesNotVisible());
    after.advance(visibleAt - 1 - after.now);
    assertEquals(List.of(), back.receive(spec(1, 30), after.now));
    after.advance(1); // visible exactly when the wait drawn before the restart ends: not drawn again
    List<ReceiveMessage.Message> got = back.receive(spec(1, 30), after.now);
    assertEquals("2", got.get(0).attributes().get("ApproximateReceiveCount"));
  }

  @Test
  void aMessageInFlightComesBackInFlightAndDrawsItsWaitWhenItsVisibilityRunsOut() {
    Rows rows = new Rows();
    ShardFixture before = new ShardFixture(rows);
    QueueState q = before.create("q", Map.of());
    q.setRedeliveryBackoff(policy);
    q.send(message("m"), false, before.now);
    q.receive(spec(1, 10), before.now);
    before.advance(1_000);

    ShardFixture after = new ShardFixture();
    QueueState back = restarted(before, rows, after);
    assertEquals(1, back.approximateNumberOfMessagesNotVisible());
    assertEquals(0, back.messagesInBackoff());
    after.advance(9_000);
    assertEquals(0, back.approximateNumberOfMessagesNotVisible());
    assertEquals(1, back.messagesInBackoff() + back.approximateNumberOfMessages(after.now));
  }
}
