package dev.sluice.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.RelaySend;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A round's rows, grouped by destination (queue or topic) in id order and cut into chunks;
 * unreadable rows, and rows naming no destination or two, refused at once.
 */
class RoundPlanTest {
  static OutboxRow row(long id, String queue) {
    return new OutboxRow(id, queue, null, "body " + id, null, null, null, null);
  }

  static OutboxRow topicRow(long id, String topic) {
    return new OutboxRow(id, null, topic, "body " + id, null, null, null, null);
  }

  static List<Long> ids(List<RelaySend.Entry> chunk) {
    return chunk.stream().map(RelaySend.Entry::rowId).toList();
  }

  static List<List<Long>> chunkIds(RoundPlan.Sends sends) {
    return sends.chunks().stream().map(RoundPlanTest::ids).toList();
  }

  @Test
  void rowsAreGroupedByDestinationKeepingIdOrder() {
    RoundPlan plan = RoundPlan.of(List.of(row(1, "a"), row(2, "b.fifo"), row(3, "a"), row(4, "b.fifo"), row(5, "c")));
    assertEquals(List.of(Destination.queue("a"), Destination.queue("b.fifo"), Destination.queue("c")),
        plan.sends().stream().map(RoundPlan.Sends::destination).toList());
    assertEquals(List.of(List.of(1L, 3L)), chunkIds(plan.sends().get(0)));
    assertEquals(List.of(List.of(2L, 4L)), chunkIds(plan.sends().get(1)));
    assertEquals(5, plan.rows());
    assertEquals(List.of(), plan.refused());
  }

  @Test
  void aTopicIsADestinationApartFromAQueueOfItsName() {
    RoundPlan plan = RoundPlan.of(List.of(topicRow(1, "orders"), row(2, "orders"), topicRow(3, "orders"),
        topicRow(4, "events.fifo"), topicRow(5, "t".repeat(256)), topicRow(6, "t".repeat(251) + ".fifo")));
    assertEquals(List.of(Destination.topic("orders"), Destination.queue("orders"), Destination.topic("events.fifo"),
        Destination.topic("t".repeat(256)), Destination.topic("t".repeat(251) + ".fifo")),
        plan.sends().stream().map(RoundPlan.Sends::destination).toList());
    assertEquals(List.of(List.of(1L, 3L)), chunkIds(plan.sends().get(0)));
    assertEquals(List.of(List.of(2L)), chunkIds(plan.sends().get(1)));
    assertEquals(List.of(), plan.refused());
  }

  @Test
  void aDestinationsRowsAreCutIntoChunks() {
    List<OutboxRow> rows = new ArrayList<>();
    for (long id = 1; id <= 23; id++) {
      rows.add(id % 2 == 0 ? row(id, "q") : topicRow(id, "t"));
    }
    assertEquals(List.of(1, 1), RoundPlan.of(rows).sends().stream().map(s -> s.chunks().size()).toList(),
        "a round of the default batch is one call per destination");
    RoundPlan plan = RoundPlan.of(rows, 10);
    List<List<RelaySend.Entry>> topic = plan.sends().get(0).chunks();
    assertEquals(List.of(10, 2), topic.stream().map(List::size).toList());
    assertEquals(21L, topic.get(1).get(0).rowId());
    assertEquals(List.of(10, 1), plan.sends().get(1).chunks().stream().map(List::size).toList());
  }

  @Test
  void aRowsFieldsBecomeItsEntry() {
    RelaySend.Entry e = RoundPlan.of(List.of(new OutboxRow(9, "q.fifo", null, "hello",
        "{\"k\": {\"DataType\": \"String\", \"StringValue\": \"v\"}}", 3, "g1", "d1"))).sends().get(0)
        .chunks().get(0).get(0);
    assertEquals(new RelaySend.Entry(9, "hello", 3, java.util.Map.of("k",
        dev.sluice.api.MessageAttributeValue.ofString("v")), "g1", "d1"), e);
  }

  @Test
  void unreadableRowsAreRefusedAndTheRestStillSent() {
    RoundPlan plan = RoundPlan.of(List.of(row(1, "q"),
        new OutboxRow(2, "q", null, "x", "{\"a\": 1}", null, null, null),
        row(3, "q?"), row(4, "no/such?queue"), row(5, "x".repeat(81)),
        new OutboxRow(6, "q", null, null, null, null, null, null), row(7, "q")));
    assertEquals(List.of(List.of(1L, 7L)), chunkIds(plan.sends().get(0)));
    assertEquals(List.of(2L, 3L, 4L, 5L, 6L), plan.refused().stream().map(DeadRow::id).toList());
    assertEquals("InvalidParameterValue", plan.refused().get(0).errorCode());
    assertTrue(plan.refused().get(1).errorMessage().contains("queue_name 'q?' is not a queue name"),
        plan.refused().get(1).toString());
    assertEquals("AWS.SimpleQueueService.NonExistentQueue", plan.refused().get(2).errorCode());
    assertEquals("MissingParameter", plan.refused().get(4).errorCode());
  }

  @Test
  void aRowNamingBothOrNeitherDestinationIsRefused() {
    RoundPlan plan = RoundPlan.of(List.of(new OutboxRow(1, "q", "t", "both", null, null, null, null),
        new OutboxRow(2, null, null, "neither", null, null, null, null), topicRow(3, "t")));
    assertEquals(List.of(Destination.topic("t")), plan.sends().stream().map(RoundPlan.Sends::destination).toList());
    assertEquals(List.of(new DeadRow(1, "InvalidParameterValue", "queue_name 'q' and topic_name 't' are both set:"
        + " a row names one destination, a queue or a topic"), new DeadRow(2, "MissingParameter",
        "queue_name and topic_name are both null: a row names one destination, a queue or a topic")),
        plan.refused());
  }

  @Test
  void aNameNoTopicCouldHaveIsRefusedAsNotFound() {
    RoundPlan plan = RoundPlan.of(List.of(topicRow(1, ""), topicRow(2, "a:b"), topicRow(3, "t".repeat(257)),
        topicRow(4, "t".repeat(252) + ".fifo"), topicRow(5, ".fifo"), topicRow(6, "arn:aws:sns:us-east-1:1:t")));
    assertEquals(List.of(), plan.sends());
    assertEquals(6, plan.refused().size());
    plan.refused().forEach(d -> assertEquals("NotFound", d.errorCode()));
    assertTrue(plan.refused().get(1).errorMessage().startsWith("topic_name 'a:b' is not a topic name"),
        plan.refused().get(1).errorMessage());
  }
}
