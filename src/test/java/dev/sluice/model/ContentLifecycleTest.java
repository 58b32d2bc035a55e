package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.ReceiveMessage;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every path a message's content takes (design/tails.md §2.5), one case per row, with the manual
 * clock and 4 KiB chunks: after each, the shard's slab holds exactly the records of the messages
 * still resident (live bytes and chunks exact), the budget exactly their charges, and once the
 * queues are gone nothing at all.
 */
class ContentLifecycleTest {
  final ShardFixture shard = new ShardFixture();
  final QueueState q = shard.create("q", Map.of());

  /** The bytes of a sent message's record. */
  static long record(NewMessage m, String dedupId) {
    return ContentSlab.recordSize(ArrivingMessages.content(m, dedupId).pack().length);
  }

  static long record(String body) {
    return record(message(body), null);
  }

  /** The record of a moved message whose content now has these ids. */
  static long moved(String body, String dedupId, String sourceArn) {
    return ContentSlab.recordSize(new PackedContent(body, null, null, "sender", null, dedupId, sourceArn).pack().length);
  }

  /** Exact live bytes and chunks, and every resident message's record its own (SlabInvariants). */
  static void assertSlab(ShardFixture s, long live, int chunks) {
    assertEquals(live, s.slab.liveBytes(), "live bytes");
    assertEquals(chunks, s.slab.chunkCount(), "chunks");
    s.assertSlabSound("");
  }

  /** The budget holds exactly the resident messages' charges: their records and the overhead. */
  static void assertCharged(ShardFixture s, int messages) {
    assertEquals(s.slab.liveBytes() + (long) messages * ArrivingMessages.MESSAGE_OVERHEAD_BYTES, s.budget.usedBytes());
  }

  void send(QueueState to, String... bodies) {
    for (String b : bodies) {
      to.send(message(b), false, shard.now);
    }
  }

  @Test
  void sendWritesOneRecordPerMessage() {
    assertSlab(shard, 0, 0);
    send(q, "a", "bb");
    assertSlab(shard, record("a") + record("bb"), 1);
    assertEquals("bb", q.receive(spec(2, 30), shard.now).get(1).body(), "read back from the record");
  }

  @Test
  void deleteReleasesTheRecordAndAnEmptiedOpenChunkIsKept() {
    send(q, "a", "b");
    ReceiveMessage.Message got = q.receive(spec(1, 30), shard.now).get(0);
    q.delete(got.receiptHandle(), shard.now);
    assertSlab(shard, record("b"), 1);
    assertCharged(shard, 1);
    q.delete(q.receive(spec(1, 30), shard.now).get(0).receiptHandle(), shard.now);
    assertSlab(shard, 0, 1); // kept for the next send, until a purge or a deletion empties the slab
    assertCharged(shard, 0);
  }

  @Test
  void purgeReleasesEveryRecordAndTrimsAnEmptySlab() {
    QueueState other = shard.create("other", Map.of());
    send(q, "a", "b", "c");
    send(other, "d");
    q.purge(shard.now);
    assertSlab(shard, record("d"), 1);
    assertCharged(shard, 1);
    shard.advance(60_000);
    other.purge(shard.now);
    assertSlab(shard, 0, 0);
    assertCharged(shard, 0);
  }

  @Test
  void retentionExpiryReleasesTheRecord() {
    QueueState shortLived = shard.create("short", Map.of("MessageRetentionPeriod", "60"));
    send(shortLived, "a");
    shard.advance(30_000);
    send(shortLived, "b");
    shard.advance(31_000);
    assertSlab(shard, record("b"), 1);
    shard.advance(30_000);
    assertSlab(shard, 0, 1);
    assertCharged(shard, 0);
  }

  @Test
  void deleteQueueReleasesEveryRecordAndTheLastChunk() {
    send(q, "a", "b");
    q.receive(spec(1, 30), shard.now);
    shard.deleteAllQueuesAndAssertSlabEmpty("");
    assertEquals(0, shard.budget.usedBytes());
  }

  @Test
  void aDeadLetterOnTheSameShardIsWrittenAgainWithItsSource() {
    QueueState dlq = shard.create("dlq", Map.of());
    QueueState src = shard.create("src", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + dlq.metadata().arn() + "\",\"maxReceiveCount\":\"1\"}"));
    send(src, "poison", "fine");
    src.receive(spec(1, 0), shard.now);
    src.receive(spec(2, 0), shard.now); // poison goes over its count; fine is received a first time
    assertEquals(1, dlq.approximateNumberOfMessages(shard.now));
    assertSlab(shard, record("fine") + moved("poison", null, src.metadata().arn()), 1);
    ReceiveMessage.Message dead = dlq.receive(spec(1, 30), shard.now).get(0);
    assertEquals("poison", dead.body());
    assertEquals(src.metadata().arn(), dead.attributes().get("DeadLetterQueueSourceArn"));
    dlq.delete(dead.receiptHandle(), shard.now);
    assertSlab(shard, record("fine"), 1);
  }

  @Test
  void aMessageMovedToAnotherShardLeavesThisSlabAndIsWrittenIntoThatOne() {
    ShardFixture other = new ShardFixture();
    QueueState dlq = other.create("dlq", Map.of());
    send(q, "a", "b");
    List<Message> out = q.moves().takeForMove(1, shard.now); // detached: a copy travels, the record goes
    assertSlab(shard, record("b"), 1);
    assertEquals(ContentSlab.NONE, out.get(0).handle);
    assertEquals("a", out.get(0).body(), "its travelling content");
    dlq.moves().adoptDeadLetter(out.get(0), q.metadata().arn(), other.now);
    assertSlab(other, moved("a", null, q.metadata().arn()), 1);
    assertEquals("a", dlq.receive(spec(1, 30), other.now).get(0).body());
    q.moves().movedAway(out.get(0)); // as the shards tell the source once the copy has arrived
    assertEquals(record("b") + ArrivingMessages.MESSAGE_OVERHEAD_BYTES, shard.budget.usedBytes());
    other.deleteAllQueuesAndAssertSlabEmpty("");
  }

  @Test
  void aMoveTaskRedrivesContentIntoItsDestination() {
    QueueState dlq = shard.create("dlq", Map.of());
    QueueState src = shard.create("src", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + dlq.metadata().arn() + "\",\"maxReceiveCount\":\"5\"}"));
    send(dlq, "x", "y", "z");
    MessageMoveTask task = dlq.startMoveTask(src.metadata().arn(), null, shard.mover, shard.now);
    shard.advance(10_000);
    assertEquals(MessageMoveTask.Status.COMPLETED, task.status());
    assertEquals(3, src.approximateNumberOfMessages(shard.now));
    assertSlab(shard, record("x") + record("y") + record("z"), 1);
    assertCharged(shard, 3);
  }

  @Test
  void aMessageTakenBackIsWrittenAgainAndOneWhoseQueueWentIsNot() {
    send(q, "a", "b");
    List<Message> out = q.moves().takeForMove(2, shard.now);
    assertSlab(shard, 0, 1);
    q.moves().takeBackOrRelease(out.get(1), shard.now);
    assertSlab(shard, record("b"), 1);
    QueueState gone = shard.create("gone", Map.of());
    send(gone, "c");
    List<Message> lost = gone.moves().takeForMove(1, shard.now);
    shard.registry.delete("gone", shard.now);
    gone.moves().takeBackOrRelease(lost.get(0), shard.now);
    q.moves().takeBackOrRelease(out.get(0), shard.now);
    assertSlab(shard, record("a") + record("b"), 1);
    assertCharged(shard, 2);
    assertEquals(List.of("a", "b"), q.receive(spec(2, 30), shard.now).stream().map(ReceiveMessage.Message::body).toList());
  }

  @Test
  void aTransferFromAnotherNodeIsWrittenFromItsBytes() {
    RestoredMessage content = RestoredMessage.of(0, UUID.randomUUID(), "far", null, null, "sender", shard.now, null,
        null, 0, null, 0, 1, shard.now, 0, 0, Arrival.KEPT_SENT_TIME);
    q.moves().adoptTransferredDeadLetter(content, 7, 8, "arn:aws:sqs:us-east-1:000000000000:elsewhere", shard.now);
    assertSlab(shard, moved("far", null, "arn:aws:sqs:us-east-1:000000000000:elsewhere"), 1);
  }

  @Test
  void aFifoDuplicateWritesNothing() {
    QueueState fifo = shard.create("f.fifo", Map.of("FifoQueue", "true"));
    NewMessage m = new NewMessage("once", null, null, null, "d1", "g", "sender", null);
    fifo.send(m, false, shard.now);
    long live = shard.slab.liveBytes();
    assertEquals(record(m, "d1"), live);
    fifo.send(m, false, shard.now);
    assertEquals(live, shard.slab.liveBytes());
    assertEquals(1, shard.slab.chunkCount());
    shard.assertSlabSound("");
  }

  @Test
  void pagingEvictionReleasesTheRecordAndAPageReadWritesTheRowsBytes() {
    FakeBacklogStore fake = FakeBacklogStore.manual();
    ShardFixture paged = ShardFixture.paged(ShardFixture.window(3), fake);
    QueueState p = paged.create("paged", Map.of());
    p.send(message("extra", 5), false, paged.now);
    for (String b : List.of("a", "b", "c")) {
      p.send(message(b), false, paged.now); // c is beyond the window: spilled, never written
    }
    assertSlab(paged, record("extra") + record("a") + record("b"), 1);
    paged.advance(5_000); // the extra is due behind a durable-only row: evicted, its row stays
    assertSlab(paged, record("a") + record("b"), 1);
    fake.commitAll();
    List<String> got = new java.util.ArrayList<>();
    for (int round = 0; round < 10 && got.size() < 4; round++) {
      p.maintain(paged.now);
      fake.answerAll();
      fake.commitAll();
      p.receive(spec(10, 30), paged.now).forEach(r -> got.add(r.body()));
      paged.assertSlabSound("round " + round + ": ");
    }
    assertEquals(List.of("a", "b", "c", "extra"), got.stream().sorted().toList(), "read back from the rows' bytes");
    assertSlab(paged, record("extra") + record("a") + record("b") + record("c"), 1);
    paged.deleteAllQueuesAndAssertSlabEmpty("");
  }

  @Test
  void aFailedWriteReleasesTheRecord() {
    FakeBacklogStore fake = FakeBacklogStore.manualHoldingSends();
    ShardFixture paged = ShardFixture.paged(ShardFixture.window(3), fake);
    QueueState p = paged.create("paged", Map.of());
    p.send(message("kept"), false, paged.now);
    p.send(message("lost"), false, paged.now);
    assertSlab(paged, record("kept") + record("lost"), 1);
    fake.fail(fake.uncommitted.size() - 1);
    assertSlab(paged, record("kept"), 1);
  }

  @Test
  void compactionMovesStragglersAndTellsTheirMessages() {
    // 64 messages of about 500 bytes fill 8 chunks of 4 KiB; keeping one in eight leaves them sparse.
    String body = "x".repeat(480);
    for (int i = 0; i < 64; i++) {
      send(q, body + (char) ('A' + i));
    }
    List<ReceiveMessage.Message> all = new java.util.ArrayList<>();
    for (List<ReceiveMessage.Message> got; !(got = q.receive(spec(10, 300), shard.now)).isEmpty(); ) {
      all.addAll(got);
    }
    assertEquals(64, all.size());
    long kept = 0;
    List<String> keptBodies = new java.util.ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (i % 8 == 0) {
        kept += record(all.get(i).body());
        keptBodies.add(all.get(i).body());
      } else {
        q.delete(all.get(i).receiptHandle(), shard.now);
      }
    }
    shard.advance(100); // the compactor's steps, a millisecond apart
    assertEquals(false, shard.slab.needsCompaction());
    assertEquals(kept, shard.slab.liveBytes());
    assertEquals(true, shard.slab.chunkCount() <= 3, shard.slab.chunkCount() + " chunks for 8 records");
    shard.assertSlabSound("after compaction: "); // every record moved is read back through its new handle
    shard.advance(300_000);
    assertEquals(keptBodies, q.receive(spec(10, 30), shard.now).stream().map(ReceiveMessage.Message::body).sorted()
        .toList());
  }
}
