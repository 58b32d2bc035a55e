package dev.sluice.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.RelaySend;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A round's rows, grouped by destination in id order and cut into chunks of ten; unreadable rows refused at once. */
class RoundPlanTest {
  static OutboxRow row(long id, String queue) {
    return new OutboxRow(id, queue, "body " + id, null, null, null, null);
  }

  static List<Long> ids(List<RelaySend.Entry> chunk) {
    return chunk.stream().map(RelaySend.Entry::rowId).toList();
  }

  @Test
  void rowsAreGroupedByDestinationKeepingIdOrder() {
    RoundPlan plan = RoundPlan.of(List.of(row(1, "a"), row(2, "b.fifo"), row(3, "a"), row(4, "b.fifo"), row(5, "c")));
    assertEquals(List.of("a", "b.fifo", "c"), plan.destinations().stream().map(RoundPlan.Destination::queueName)
        .toList());
    assertEquals(List.of(List.of(1L, 3L)), plan.destinations().get(0).chunks().stream().map(RoundPlanTest::ids)
        .toList());
    assertEquals(List.of(List.of(2L, 4L)), plan.destinations().get(1).chunks().stream().map(RoundPlanTest::ids)
        .toList());
    assertEquals(5, plan.rows());
    assertEquals(List.of(), plan.refused());
  }

  @Test
  void aDestinationsRowsAreCutIntoChunksOfTen() {
    List<OutboxRow> rows = new ArrayList<>();
    for (long id = 1; id <= 23; id++) {
      rows.add(row(id, "q"));
    }
    List<List<RelaySend.Entry>> chunks = RoundPlan.of(rows).destinations().get(0).chunks();
    assertEquals(List.of(10, 10, 3), chunks.stream().map(List::size).toList());
    assertEquals(11L, chunks.get(1).get(0).rowId());
    assertEquals(23L, chunks.get(2).get(2).rowId());
  }

  @Test
  void aRowsFieldsBecomeItsEntry() {
    RelaySend.Entry e = RoundPlan.of(List.of(new OutboxRow(9, "q.fifo", "hello",
        "{\"k\": {\"DataType\": \"String\", \"StringValue\": \"v\"}}", 3, "g1", "d1"))).destinations().get(0)
        .chunks().get(0).get(0);
    assertEquals(new RelaySend.Entry(9, "hello", 3, java.util.Map.of("k",
        dev.sluice.api.MessageAttributeValue.ofString("v")), "g1", "d1"), e);
  }

  @Test
  void unreadableRowsAreRefusedAndTheRestStillSent() {
    RoundPlan plan = RoundPlan.of(List.of(row(1, "q"),
        new OutboxRow(2, "q", "x", "{\"a\": 1}", null, null, null),
        row(3, null), row(4, "no/such?queue"), row(5, "x".repeat(81)),
        new OutboxRow(6, "q", null, null, null, null, null), row(7, "q")));
    assertEquals(List.of(List.of(1L, 7L)), plan.destinations().get(0).chunks().stream().map(RoundPlanTest::ids)
        .toList());
    assertEquals(List.of(2L, 3L, 4L, 5L, 6L), plan.refused().stream().map(DeadRow::id).toList());
    assertEquals("InvalidParameterValue", plan.refused().get(0).errorCode());
    assertTrue(plan.refused().get(1).errorMessage().contains("queue_name is null"), plan.refused().get(1).toString());
    assertEquals("AWS.SimpleQueueService.NonExistentQueue", plan.refused().get(2).errorCode());
    assertEquals("MissingParameter", plan.refused().get(4).errorCode());
  }
}
