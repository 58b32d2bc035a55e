package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ChangeBatchTest {
  /** One content for all rows, so that rows compare equal (a record compares arrays by identity). */
  static final byte[] CONTENT = new MessageContent("body", null, null, "sender", null, null, null).encode();

  static MessageRow row(long key) {
    return new MessageRow(7, key, new UUID(1, key), 1000, 0, 0, 0, 0, 0, 1000, (short) 0, CONTENT);
  }

  @Test
  void aMessageSentAndDeletedInOneWindowWritesNothing() {
    ChangeBatch b = new ChangeBatch();
    b.stored(row(1));
    b.changed(new DeliveryState(7, 1, 5000, 1, 2000, 1));
    b.deleted(7, 1);
    assertTrue(b.isEmpty());
    assertEquals(3, b.events());
  }

  @Test
  void anOutboxReceiptOutlivesItsMessageAndARecordForgottenInOneWindowWritesNothing() {
    ChangeBatch b = new ChangeBatch();
    b.stored(row(1));
    b.relayReceiptRecorded(new RelayReceiptRow(7, "orders", 41, new UUID(1, 1)));
    b.relayReceiptRecorded(new RelayReceiptRow(7, "orders", 42, new UUID(1, 2)));
    b.deleted(7, 1); // the message goes; the receipt that its row was sent stays
    b.relayReceiptForgotten(7, "orders", 42);
    b.relayReceiptForgotten(7, "orders", 40); // recorded in an earlier window
    assertEquals(List.of(new RelayReceiptRow(7, "orders", 41, new UUID(1, 1))), b.relayReceiptsRecorded());
    assertEquals(List.of(new RelayReceiptRow(7, "orders", 40, null)), b.relayReceiptsForgotten());
    assertTrue(b.inserts().isEmpty());
  }

  @Test
  void aDeletedQueueWritesNoneOfItsOutboxReceipts() {
    ChangeBatch b = new ChangeBatch();
    b.relayReceiptRecorded(new RelayReceiptRow(7, "orders", 41, new UUID(1, 1)));
    b.relayReceiptForgotten(7, "orders", 40);
    b.relayReceiptRecorded(new RelayReceiptRow(8, "orders", 41, new UUID(1, 3)));
    b.queueDeleted(7);
    assertEquals(List.of(new RelayReceiptRow(8, "orders", 41, new UUID(1, 3))), b.relayReceiptsRecorded());
    assertTrue(b.relayReceiptsForgotten().isEmpty());
  }

  @Test
  void aSendFollowedByReceivesIsOneInsertOfTheLatestState() {
    ChangeBatch b = new ChangeBatch();
    b.stored(row(1));
    b.changed(new DeliveryState(7, 1, 5000, 1, 2000, 1));
    b.changed(new DeliveryState(7, 1, 9000, 2, 2000, 2));
    assertEquals(List.of(row(1).with(new DeliveryState(7, 1, 9000, 2, 2000, 2))), b.inserts());
    assertTrue(b.updates().isEmpty());
  }

  @Test
  void aBackoffStartedInTheSameWindowAsTheSendIsInTheInsertAndALaterReceiveClearsIt() {
    ChangeBatch b = new ChangeBatch();
    b.stored(row(1));
    b.changed(new DeliveryState(7, 1, 5000, 1, 2000, 1));
    b.changed(new DeliveryState(7, 1, 8000, 1, 2000, 1, true)); // its visibility ran out: a backoff
    assertTrue(b.inserts().get(0).inBackoff());
    assertEquals(8000, b.inserts().get(0).visibleAt());
    ChangeBatch later = new ChangeBatch();
    later.changed(new DeliveryState(7, 1, 8000, 1, 2000, 1, true));
    later.changed(new DeliveryState(7, 1, 40000, 2, 2000, 2));
    assertEquals(List.of(new DeliveryState(7, 1, 40000, 2, 2000, 2, false)), later.updates());
  }

  @Test
  void changesToAStoredMessageAreOneUpdateAndADeleteWinsOverThem() {
    ChangeBatch b = new ChangeBatch();
    b.changed(new DeliveryState(7, 1, 5000, 1, 2000, 1));
    b.changed(new DeliveryState(7, 1, 0, 1, 2000, 1));
    b.changed(new DeliveryState(7, 2, 6000, 3, 2000, 3));
    b.deleted(7, 2);
    assertEquals(List.of(new DeliveryState(7, 1, 0, 1, 2000, 1)), b.updates());
    assertArrayEquals(new long[][] {{7}, {2}}, b.deletes());
    assertTrue(b.inserts().isEmpty());
  }

  @Test
  void aPurgeDropsTheWindowsEarlierMessageChangesAndKeepsLaterOnes() {
    ChangeBatch b = new ChangeBatch();
    b.stored(row(1));
    b.changed(new DeliveryState(7, 9, 5000, 1, 2000, 1));
    b.queuePurged(7);
    b.stored(row(2));
    assertEquals(List.of(row(2)), b.inserts());
    assertTrue(b.updates().isEmpty());
    assertEquals(List.of(7L), b.purgedQueues());
  }

  @Test
  void aDeletedQueueWritesOnlyItsDeletion() {
    ChangeBatch b = new ChangeBatch();
    b.queueSaved(new QueueRow(7, "000000000000", "us-east-1", "orders", 1, 1, "{}", "{}",
        Long.MIN_VALUE, Long.MIN_VALUE));
    b.stored(row(1));
    b.queuePurged(7);
    b.queueDeleted(7);
    assertTrue(b.inserts().isEmpty());
    assertTrue(b.queueRows().isEmpty());
    assertTrue(b.purgedQueues().isEmpty());
    assertEquals(List.of(7L), b.deletedQueues());
  }

  @Test
  void aBatchKeepsEachQueuesHighestReceivedPlaceAndNoneForADeletedQueue() {
    ChangeBatch b = new ChangeBatch();
    b.received(7, 500, 3);
    b.received(7, 400, 9);
    b.received(7, 500, 2);
    b.received(8, 10, 1);
    b.received(8, 10, 4);
    b.received(9, 1, 1);
    b.queueDeleted(9);
    assertEquals(List.of(new Frontier(7, 500, 3), new Frontier(8, 10, 4)), b.frontiers());
    assertTrue(!b.isEmpty());
  }
}
