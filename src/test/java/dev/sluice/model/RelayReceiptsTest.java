package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** An outbox row is one message however often the relay sends it, until the relay forgets it. */
class RelayReceiptsTest {
  @Test
  void aRowSentAgainAnswersItsFirstMessageAndStoresNothingEvenAfterItWasConsumed() {
    ChangeLogTest.Recording log = new ChangeLogTest.Recording(false);
    ShardFixture shard = new ShardFixture(log);
    QueueState q = shard.create("orders", Map.of());
    RelayReceipts.Relayed first = q.relayReceipts().relay("app", 7, message("a"), shard.now);
    assertFalse(first.duplicate());
    var got = q.receive(spec(10, 30), shard.now);
    q.delete(got.get(0).receiptHandle(), shard.now);

    RelayReceipts.Relayed again = q.relayReceipts().relay("app", 7, message("a"), shard.now);
    assertTrue(again.duplicate());
    assertEquals(first.messageId(), again.messageId());
    assertEquals(0, q.approximateNumberOfMessages(shard.now));
    assertEquals(List.of("saved orders", "stored a", "relayed app:7", "changed a count 1", "deleted a"), log.lines,
        "the receipt is logged in the same call as its message, and a duplicate logs nothing");

    // the same row id of another source is another row
    assertFalse(q.relayReceipts().relay("billing", 7, message("b"), shard.now).duplicate());
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
  }

  @Test
  void aRefusedRowLeavesNoReceiptSoItIsTriedAgainAndAForgottenRowIsForgottenOnce() {
    ChangeLogTest.Recording log = new ChangeLogTest.Recording(false);
    ShardFixture shard = new ShardFixture(log);
    QueueState q = shard.create("orders.fifo", Map.of("FifoQueue", "true"));
    SqsException refused = assertThrows(SqsException.class,
        () -> q.relayReceipts().relay("app", 1, message("no group"), shard.now));
    assertEquals(ErrorCode.MISSING_PARAMETER, refused.code());
    assertEquals(List.of(), q.relayReceipts().heldRows("app"));

    q.relayReceipts().relay("app", 2, new NewMessage("x", null, null, null, "d2", "g", "s", null), shard.now);
    q.relayReceipts().relay("app", 3, new NewMessage("y", null, null, null, "d3", "g", "s", null), shard.now);
    assertEquals(Set.of(2L, 3L), new HashSet<>(q.relayReceipts().heldRows("app")));
    log.lines.clear();
    q.relayReceipts().forget("app", List.of(2L, 9L));
    q.relayReceipts().forget("app", List.of(2L));
    q.relayReceipts().forget("other", List.of(3L));
    assertEquals(List.of("forgotten app:[2]"), log.lines, "only receipts held are forgotten, once");
    assertEquals(List.of(3L), q.relayReceipts().heldRows("app"));
    assertEquals(1, q.relayReceipts().count());
  }

  @Test
  void aRelayWhoseLeaseWasTakenOverIsRefusedSoItsLateSendAddsNoSecondMessage() {
    ShardFixture shard = new ShardFixture(ChangeLog.NONE);
    QueueState q = shard.create("orders", Map.of());
    RelayReceipts receipts = q.relayReceipts();
    receipts.admitEpoch("app", 100); // relay A holds the lease
    receipts.admitEpoch("app", 250); // relay B took it over, sent row 5, deleted it and forgot it
    receipts.relay("app", 5, message("five"), shard.now);
    receipts.forget("app", List.of(5L));
    SqsException fenced = assertThrows(SqsException.class, () -> receipts.admitEpoch("app", 100));
    assertEquals(ErrorCode.SERVICE_UNAVAILABLE, fenced.code(), "retryable for a client, a lost lease for a relay");
    receipts.admitEpoch("app", 250);
    receipts.admitEpoch("billing", 1); // epochs are per source
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
  }

  @Test
  void aRowWhoseWriteFailedForGoodIsSentAgainNotAnsweredAsSent() {
    ShardFixture shard = new ShardFixture(ChangeLog.NONE);
    QueueState q = shard.create("orders", Map.of());
    RelayReceipts.Relayed first = q.relayReceipts().relay("app", 7, message("a"), shard.now);
    q.relayReceipts().relay("app", 8, message("b"), shard.now);
    q.relayReceipts().messageLost(first.messageId()); // the store refused the write it was in
    assertFalse(q.relayReceipts().relay("app", 7, message("a"), shard.now).duplicate());
    assertTrue(q.relayReceipts().relay("app", 8, message("b"), shard.now).duplicate());
    assertEquals(2, q.relayReceipts().count());
  }

  @Test
  void restoredReceiptsAnswerAsRecordedOnes() {
    ShardFixture shard = new ShardFixture(ChangeLog.NONE);
    QueueState q = shard.create("orders", Map.of());
    q.relayReceipts().restore("app", 11, "3f0c2a9e-0000-4000-8000-000000000011");
    RelayReceipts.Relayed again = q.relayReceipts().relay("app", 11, message("a"), shard.now);
    assertTrue(again.duplicate());
    assertEquals("3f0c2a9e-0000-4000-8000-000000000011", again.messageId());
    assertEquals(0, q.approximateNumberOfMessages(shard.now));
  }

  /**
   * A relay that crashes at random points sends rows again, in any order, and forgets rows only
   * after it deleted them: every row is stored exactly once and nothing forgotten is held.
   */
  @Test
  void randomRedeliveriesAndForgetsStoreEveryRowExactlyOnce() {
    for (long seed = 1; seed <= 50; seed++) {
      Random random = new Random(seed);
      ShardFixture shard = new ShardFixture(ChangeLog.NONE);
      QueueState q = shard.create("orders", Map.of());
      Set<Long> deleted = new HashSet<>();
      Set<Long> forgotten = new HashSet<>();
      int stored = 0;
      for (int step = 0; step < 400; step++) {
        long row = random.nextInt(60);
        if (deleted.contains(row)) {
          // a deleted row is never read again; its receipt is forgotten, sooner or later
          if (!forgotten.contains(row) && random.nextBoolean()) {
            q.relayReceipts().forget("app", List.of(row));
            forgotten.add(row);
          }
          continue;
        }
        if (!q.relayReceipts().relay("app", row, message("r" + row), shard.now).duplicate()) {
          stored++;
        }
        if (random.nextInt(3) == 0) {
          deleted.add(row); // the relay deleted the row and committed; it may crash before forgetting
        }
      }
      Set<Long> sent = new HashSet<>(q.relayReceipts().heldRows("app"));
      sent.addAll(forgotten);
      assertEquals(sent.size(), stored, "seed " + seed + ": one message per row");
      assertEquals(stored, q.approximateNumberOfMessages(shard.now), "seed " + seed);
      List<Long> held = new ArrayList<>(q.relayReceipts().heldRows("app"));
      held.retainAll(forgotten);
      assertEquals(List.of(), held, "seed " + seed + ": nothing forgotten is held");
    }
  }
}
