package dev.sluice.model;

import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ReceiveMessage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Paging of a FIFO queue (design page §2.9, §2.12) with a window of 3, 1 ms buckets and a store
 * that commits and answers only when the test says: the resident part is a prefix in sequence
 * order, reads stop short of uncommitted rows, the lookahead is the window, a delay change reaches
 * rows not in memory, and start-up restores the counts and the sequence.
 */
class FifoBacklogTest {
  final FakeBacklogStore fake = FakeBacklogStore.manual();
  final ShardFixture shard = ShardFixture.paged(1L << 30, 120_000, ShardFixture.window(3), fake, 1);
  final QueueState q = shard.create("orders.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));

  @AfterEach
  void noRowReadTwice() {
    shard.assertBacklogsSound();
  }

  Message send(String group, String body) {
    q.send(new NewMessage(body, null, null, null, null, group, "s", null), false, shard.now);
    return fake.uncommitted.get(fake.uncommitted.size() - 1).stored;
  }

  List<ReceiveMessage.Message> receive(int max) {
    return q.receive(spec(max, 30), shard.now);
  }

  static List<String> bodies(List<ReceiveMessage.Message> ms) {
    return ms.stream().map(ReceiveMessage.Message::body).toList();
  }

  void pageIn() {
    fake.commitAll();
    q.maintain(shard.now);
    while (!fake.reads.isEmpty()) {
      fake.answer(0);
      q.maintain(shard.now);
    }
  }

  String counts() {
    return q.approximateNumberOfMessages(shard.now) + "/" + q.approximateNumberOfMessagesNotVisible() + "/"
        + q.approximateNumberOfMessagesDelayed(shard.now);
  }

  @Test
  void onceARowIsDurableOnlyEverySendSpillsSoThatNoGroupIsOvertaken() {
    send("g", "g1");
    send("g", "g2");
    send("h", "h1");
    assertEquals(MessageState.PAGED_OUT, send("g", "g3").state());
    fake.commitAll();
    assertEquals(List.of("g1", "g2"), bodies(receive(2)));
    // Two never-received places are free now, but g3 is durable-only: h2 must not come before it.
    assertEquals(MessageState.PAGED_OUT, send("h", "h2").state());
    assertEquals("3/2/0", counts());
    pageIn();
    assertEquals(List.of("h1", "h2"), bodies(receive(10)), "g is locked by g1, g2 in flight");
  }

  @Test
  void aReadStopsShortOfTheFirstRowNotCommittedWhateverCommitsAfterIt() {
    for (String b : List.of("a1", "a2", "a3")) {
      send("a", b);
    }
    Message a4 = send("a", "a4");
    Message a5 = send("a", "a5");
    fake.commitStored(a5); // a later lane commits first
    receive(3).forEach(m -> q.delete(m.receiptHandle(), shard.now));
    q.maintain(shard.now);
    assertEquals(1, fake.reads.size());
    PageRequest read = fake.reads.get(0).request;
    assertTrue(read.fifo());
    assertTrue(read.upTo().compareTo(DeliveryPosition.of(a4)) < 0, "a read passing a4 could see a5 and not a4: " + read);
    fake.answer(0);
    assertEquals(List.of(), bodies(receive(10)));
    pageIn();
    assertEquals(List.of("a4", "a5"), bodies(receive(10)));
  }

  @Test
  void aGroupWhoseBacklogFillsTheWindowHidesLaterGroupsUntilItMoves() {
    send("hot", "hot1");
    send("hot", "hot2");
    send("hot", "hot3");
    send("hot", "hot4");
    send("cold", "cold1");
    fake.commitAll();
    ReceiveMessage.Message head = receive(1).get(0);
    assertEquals("hot1", head.body());
    pageIn(); // the window fills with hot2..hot4, all behind hot1 in flight
    assertEquals(List.of(), bodies(receive(10)), "cold1 is beyond the lookahead of 3 (AWS's rule, with W)");
    assertEquals("4/1/0", counts(), "yet it is counted");
    q.delete(head.receiptHandle(), shard.now);
    List<ReceiveMessage.Message> got = receive(10);
    assertEquals(List.of("hot2", "hot3", "hot4"), bodies(got));
    got.forEach(m -> q.delete(m.receiptHandle(), shard.now));
    pageIn();
    assertEquals(List.of("cold1"), bodies(receive(10)));
  }

  @Test
  void aDelayChangeReachesRowsNotInMemoryAndLeavesVisibleOnesVisible() {
    q.setAttributes(Map.of("DelaySeconds", "10"), shard.now);
    shard.advance(1); // sent in the millisecond of the change, they would be visible at once
    for (String b : List.of("a1", "a2", "a3", "a4", "a5")) {
      send("a", b);
    }
    fake.commitAll();
    assertEquals("0/0/5", counts());
    shard.advance(4_000);
    send("a", "a6"); // due at 14 s
    fake.commitAll();
    shard.advance(7_000); // a1..a5 visible at 10 s
    assertEquals("5/0/1", counts());
    q.setAttributes(Map.of("DelaySeconds", "60"), shard.now); // a6 now due 64 s; a1..a5 stay visible
    assertEquals("5/0/1", counts());
    List<ReceiveMessage.Message> got = receive(10);
    assertEquals(List.of("a1", "a2", "a3"), bodies(got));
    got.forEach(m -> q.delete(m.receiptHandle(), shard.now));
    pageIn();
    got = receive(10);
    assertEquals(List.of("a4", "a5"), bodies(got), "read back visible, by the rule");
    got.forEach(m -> q.delete(m.receiptHandle(), shard.now));
    pageIn();
    assertEquals(List.of(), bodies(receive(10)), "a6 read back delayed, holding the group");
    assertEquals("0/0/1", counts());
    q.setAttributes(Map.of("DelaySeconds", "0"), shard.now);
    shard.advance(0); // its timer, moved to now, fires
    assertEquals(List.of("a6"), bodies(receive(10)));
  }

  @Test
  void startUpRestoresTheCountsAndTheSequenceWithoutTheRows() {
    ShardFixture restarted = ShardFixture.paged(1L << 30, 120_000, ShardFixture.window(3), fake, 2);
    QueueState r = restarted.create("orders.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication",
        "true", "DelaySeconds", "10"));
    long now = restarted.now;
    long last = 1_700_000_000_000_000_500L;
    // 40 rows durable-only, 7 of them sent in the last 10 s (delayed), in 1 ms buckets.
    r.restoreBacklog(Long.MIN_VALUE, Long.MIN_VALUE, 40, Map.of(now - 2_000, 4, now - 9_000, 3, now - 20_000, 5),
        now - 600_000, now, now);
    r.restoreLastSequenceNumber(last);
    assertEquals(33 + "/0/" + 7, r.approximateNumberOfMessages(now) + "/" + r.approximateNumberOfMessagesNotVisible()
        + "/" + r.approximateNumberOfMessagesDelayed(now));
    r.send(new NewMessage("next", null, null, null, null, "g", "s", null), false, now);
    assertTrue(r.lastSequenceNumber() > last, "sequence numbers continue past the rows'");
    restarted.advance(2_000);
    assertEquals("36/0/5", r.approximateNumberOfMessages(restarted.now) + "/"
        + r.approximateNumberOfMessagesNotVisible() + "/" + r.approximateNumberOfMessagesDelayed(restarted.now));
  }
}
