package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A queue's arrived, received and deleted totals (design/console.md §2.4), with a manual clock: what
 * each SQS action adds, and what it must not (refused sends, FIFO duplicates and replays, purges,
 * retention, dead letters leaving, messages handed back or restored). In memory mode and paged
 * (window 3, a store that commits and reads at once), where sends beyond the window are spilled and
 * read back in pages and the totals must come out the same.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"memory", "paged"})
class QueueCountersTest {
  final ShardFixture shard;
  final QueueState q;

  QueueCountersTest(String mode) {
    shard = ShardFixture.of(mode);
    q = shard.create("q", Map.of());
  }

  @AfterEach
  void noPageReadTwiceAndCountsNeverResynchronised() {
    shard.assertBacklogsSound();
  }

  /** "arrived/received/deleted", so that a failure shows all three. */
  static String totals(QueueState q) {
    QueueCounters c = q.counters();
    return c.arrived() + "/" + c.received() + "/" + c.deleted();
  }

  List<ReceiveMessage.Message> receive(QueueState queue, int max, int visibilitySeconds) {
    return queue.receive(spec(max, visibilitySeconds), shard.now);
  }

  @Test
  void aNewQueueStartsAtZero() {
    assertEquals("0/0/0", totals(q));
  }

  @Test
  void sendsAndBatchEntriesArriveAndRefusedSendsDoNot() {
    q.send(message("a"), false, shard.now);
    q.send(message("b", 5), false, shard.now); // delayed: arrived all the same
    q.send(message("c"), true, shard.now);
    assertEquals("3/0/0", totals(q));
    QueueState small = shard.create("small", Map.of("MaximumMessageSize", "1024"));
    assertThrows(SqsException.class, () -> small.send(message("x".repeat(2000)), false, shard.now));
    assertThrows(SqsException.class, () -> small.send(message("y", 901), false, shard.now));
    assertEquals("0/0/0", totals(small));
  }

  @Test
  void aFifoDuplicateDoesNotArrive() {
    QueueState fifo = shard.create("f.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
    NewMessage m = new NewMessage("once", null, null, null, null, "g", "sender", null);
    String id = fifo.send(m, false, shard.now).messageId();
    assertEquals(id, fifo.send(m, false, shard.now).messageId());
    assertEquals("1/0/0", totals(fifo));
    fifo.send(new NewMessage("twice", null, null, null, null, "g", "sender", null), false, shard.now);
    assertEquals("2/0/0", totals(fifo));
  }

  @Test
  void everyMessageAReceiveHandsOutCountsEachTimeItIsHandedOut() {
    for (int i = 0; i < 5; i++) {
      q.send(message("m" + i), false, shard.now);
    }
    assertEquals(3, receive(q, 3, 30).size());
    assertEquals("5/3/0", totals(q));
    assertEquals(2, receive(q, 10, 0).size()); // visibility 0: handed out, visible again at once
    assertEquals("5/5/0", totals(q));
    assertEquals(2, receive(q, 10, 30).size());
    assertEquals(List.of(), receive(q, 10, 30));
    assertEquals("5/7/0", totals(q)); // an empty receive adds nothing
    shard.advance(30_000); // all five are visible again, and received again
    assertEquals(5, receive(q, 10, 30).size());
    assertEquals("5/12/0", totals(q)); // more receives than arrivals: redeliveries count
  }

  @Test
  void aParkedReceiveCountsWhatItIsHanded() {
    ShardFixture.Recorder parked = new ShardFixture.Recorder(spec(10, 30));
    q.park(parked.waiter, shard.now + 20_000);
    assertEquals("0/0/0", totals(q));
    q.send(message("for the long poll"), false, shard.now);
    assertEquals(1, parked.completions.size());
    assertEquals("1/1/0", totals(q));
  }

  @Test
  void aFifoReceiveReplayedByItsAttemptIdIsNoNewDelivery() {
    QueueState fifo = shard.create("f.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
    fifo.send(new NewMessage("one", null, null, null, null, "g", "sender", null), false, shard.now);
    ReceiveSpec attempt = new ReceiveSpec(1, 30, spec(1, 30).selection(), "attempt-1");
    String first = fifo.receive(attempt, shard.now).get(0).receiptHandle();
    assertEquals(first, fifo.receive(attempt, shard.now).get(0).receiptHandle()); // the same answer again
    assertEquals("1/1/0", totals(fifo));
  }

  @Test
  void aDeleteCountsOnceAndOnlyWhenItRemovesAMessage() {
    q.send(message("a"), false, shard.now);
    q.send(message("b"), false, shard.now);
    List<ReceiveMessage.Message> got = receive(q, 2, 30);
    q.delete(got.get(0).receiptHandle(), shard.now);
    assertEquals("2/2/1", totals(q));
    q.delete(got.get(0).receiptHandle(), shard.now); // already deleted: succeeds, removes nothing
    assertEquals("2/2/1", totals(q));
    assertThrows(SqsException.class, () -> q.delete("not a handle", shard.now));
    q.delete(got.get(1).receiptHandle(), shard.now);
    assertEquals("2/2/2", totals(q));
  }

  @Test
  void aStaleFifoHandleDeletesNothingAndCountsNothing() {
    QueueState fifo = shard.create("f.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
    fifo.send(new NewMessage("one", null, null, null, null, "g", "sender", null), false, shard.now);
    String stale = fifo.receive(spec(1, 1), shard.now).get(0).receiptHandle();
    shard.advance(1_000);
    String current = fifo.receive(spec(1, 30), shard.now).get(0).receiptHandle();
    assertThrows(SqsException.class, () -> fifo.delete(stale, shard.now));
    assertEquals("1/2/0", totals(fifo));
    fifo.delete(current, shard.now);
    assertEquals("1/2/1", totals(fifo));
  }

  @Test
  void purgeAndRetentionShowAsDepthNotAsDeletes() {
    for (int i = 0; i < 4; i++) {
      q.send(message("m" + i), false, shard.now);
    }
    receive(q, 1, 30);
    q.purge(shard.now);
    assertEquals(0, q.approximateNumberOfMessages(shard.now) + q.approximateNumberOfMessagesNotVisible());
    assertEquals("4/1/0", totals(q));
    QueueState brief = shard.create("brief", Map.of("MessageRetentionPeriod", "60"));
    brief.send(message("expires"), false, shard.now);
    shard.advance(61_000);
    assertEquals(0, brief.approximateNumberOfMessages(shard.now));
    assertEquals("1/0/0", totals(brief));
  }

  @Test
  void aDeadLetterArrivesInItsQueueAndARedrivenMessageBackInItsSource() {
    QueueState dlq = shard.create("dlq", Map.of());
    QueueState src = shard.create("src", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + dlq.metadata().arn() + "\",\"maxReceiveCount\":\"1\"}"));
    src.send(message("poison"), false, shard.now);
    assertEquals(1, receive(src, 1, 1).size());
    shard.advance(1_000);
    assertEquals(List.of(), receive(src, 1, 30)); // received once already: it moves on instead
    assertEquals("1/1/0", totals(src)); // a move out is neither a receive nor a delete
    assertEquals("1/0/0", totals(dlq));
    MessageMoveTask task = dlq.startMoveTask(null, null, shard.mover, shard.now);
    shard.advance(1_000);
    assertEquals(MessageMoveTask.Status.COMPLETED, task.status());
    assertEquals("1/0/0", totals(dlq)); // redriven away: depth, not deletes
    assertEquals("2/1/0", totals(src));
  }

  @Test
  void aTransferredDeadLetterArrivesAndAMessageHandedBackDoesNot() {
    RestoredMessage content = RestoredMessage.of(0, UUID.randomUUID(), "far", null, null, "sender", shard.now, null,
        null, 0, null, 0, 1, shard.now, 0, 0, Arrival.KEPT_SENT_TIME);
    q.moves().adoptTransferredDeadLetter(content, 7, 8, "arn:aws:sqs:us-east-1:000000000000:elsewhere", shard.now);
    assertEquals("1/0/0", totals(q));
    List<Message> taken = q.moves().takeForMove(1, shard.now);
    assertEquals(1, taken.size());
    q.moves().takeBackOrRelease(taken.get(0), shard.now); // its next hop was gone: the same message, back
    assertEquals("1/0/0", totals(q));
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
  }

  @Test
  void aRestoredMessageIsNoArrival() {
    QueueState restored = shard.create("restored", Map.of());
    restored.restore(RestoredMessage.of(1, UUID.randomUUID(), "kept", null, null, "sender", shard.now, null, null, 0,
        null, shard.now, 0, 0, 0, shard.now, Arrival.SENT), shard.now);
    assertEquals(1, restored.approximateNumberOfMessages(shard.now));
    assertEquals("0/0/0", totals(restored));
  }

  @Test
  void aQueueMadeAgainStartsFromZero() {
    q.send(message("a"), false, shard.now);
    receive(q, 1, 30);
    long generation = q.metadata().generation();
    shard.registry.delete("q", shard.now);
    shard.now += 61_000; // a name is free again 60 s after its queue was deleted
    QueueState again = shard.create("q", Map.of());
    assertNotEquals(generation, again.metadata().generation());
    assertEquals("0/0/0", totals(again));
    assertEquals("1/1/0", totals(q)); // the old object keeps what it counted; nothing reads it any more
  }

  @Test
  void manyMessagesCountExactlyEvenWhenMostArePagedOutAndReadBack() {
    int n = 50;
    for (int i = 0; i < n; i++) {
      q.send(message("m" + i), i % 2 == 0, shard.now);
    }
    assertEquals(n + "/0/0", totals(q));
    int received = 0;
    for (int round = 0; round < 100 && received < n; round++) {
      for (ReceiveMessage.Message m : receive(q, 10, 30)) {
        received++;
        q.delete(m.receiptHandle(), shard.now);
      }
      q.maintain(shard.now);
    }
    assertEquals(n, received);
    assertEquals(n + "/" + n + "/" + n, totals(q));
  }
}
