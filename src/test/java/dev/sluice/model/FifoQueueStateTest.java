package dev.sluice.model;

import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * FIFO rules of the SQS FIFO queues guide, with a manual clock; in memory mode and in paged mode
 * with a head window of 3 and a store that commits and reads at once, where most messages are read
 * back in pages: a small window must not change what a client sees (design page §4, step 6).
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"memory", "paged"})
class FifoQueueStateTest {
  final ShardFixture shard;
  final QueueState q;

  /**
   * Paged with a window of 3: receives look for groups among the first 3 messages not received yet
   * (AWS's own rule with 120,000 in place of the window, compatibility page), and a receive that
   * reads a page cannot take more of a group it took from already, as their heads are in flight. The
   * few tests that see further than that expect what a 3-message lookahead answers.
   */
  final boolean paged;

  FifoQueueStateTest(String mode) {
    paged = mode.equals("paged");
    shard = ShardFixture.of(mode);
    q = shard.create("orders.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
  }

  @AfterEach
  void noPageReadTwiceAndCountsNeverResynchronised() {
    shard.assertBacklogsSound();
  }

  static NewMessage in(String group, String body) {
    return new NewMessage(body, null, null, null, null, group, "sender", null);
  }

  static NewMessage in(String group, String body, String dedupId) {
    return new NewMessage(body, null, null, null, dedupId, group, "sender", null);
  }

  SendMessage.Response send(String group, String body) {
    return q.send(in(group, body), false, shard.now);
  }

  List<String> receive(int max) {
    return bodies(q.receive(spec(max, 30), shard.now));
  }

  List<ReceiveMessage.Message> receiveAll(int max, int visibility) {
    return q.receive(spec(max, visibility), shard.now);
  }

  static List<String> bodies(List<ReceiveMessage.Message> ms) {
    return ms.stream().map(ReceiveMessage.Message::body).toList();
  }

  @Test
  void aGroupIsLockedWhileItsHeadIsInFlightAndUnlockedByTheDelete() {
    send("g1", "m1");
    send("g1", "m2");
    send("g1", "m3");
    ReceiveMessage.Message first = receiveAll(1, 30).get(0);
    assertEquals("m1", first.body());
    assertEquals(List.of(), receive(1));
    assertEquals(List.of(), receive(10));
    q.delete(first.receiptHandle(), shard.now);
    assertEquals(List.of("m2"), receive(1));
  }

  @Test
  void anExpiredHeadComesBackFirst() {
    send("g1", "m1");
    send("g1", "m2");
    assertEquals(List.of("m1"), receive(1));
    shard.advance(30_000);
    assertEquals(List.of("m1", "m2"), receive(10));
  }

  @Test
  void aGroupWhoseVisibilityRunsOutTogetherReachesAWaitingReceiveWhole() {
    send("g", "m1");
    send("g", "m2");
    send("g", "m3");
    assertEquals(3, receiveAll(10, 30).size());
    ShardFixture.Recorder waiting = new ShardFixture.Recorder(spec(10, 30));
    q.park(waiting.waiter, shard.now + 60_000);
    shard.advance(30_000);
    assertEquals(List.of(List.of("m1", "m2", "m3")), waiting.completions.stream().map(FifoQueueStateTest::bodies).toList());
  }

  @Test
  void singleReceivesTakeTheFirstMessageOfEachGroupInTurn() {
    send("divide-group1", "g1-m1");
    send("divide-group1", "g1-m2");
    send("divide-group2", "g2-m1");
    send("divide-group3", "g3-m1");
    assertEquals(List.of("g1-m1"), receive(1));
    assertEquals(List.of("g2-m1"), receive(1));
    assertEquals(List.of("g3-m1"), receive(1));
    assertEquals(List.of(), receive(1));
  }

  @Test
  void oneReceiveFillsFromOneGroupFirst() {
    send("g1", "g1-m1");
    send("g2", "g2-m1");
    send("g1", "g1-m2");
    send("g1", "g1-m3");
    if (paged) {
      assertEquals(List.of("g1-m1", "g1-m2", "g2-m1"), receive(10)); // g1-m3 was beyond the window
    } else {
      assertEquals(List.of("g1-m1", "g1-m2", "g1-m3", "g2-m1"), receive(10));
    }
  }

  @Test
  void anInFlightMessageBlocksTheMessagesBehindIt() {
    send("g", "foo");
    send("g", "bar");
    send("g", "baz");
    List<ReceiveMessage.Message> all = receiveAll(3, 30);
    // Extend bar only; foo and baz expire: foo is deliverable, baz waits behind bar (the SQS FIFO queues guide).
    q.changeVisibility(all.get(1).receiptHandle(), 100, shard.now);
    shard.advance(30_000);
    assertEquals(List.of("foo"), receive(10));
  }

  @Test
  void groupsAreServedInTheOrderTheirHeadsBecameVisible() {
    // As AWS answers test_fifo_message_group_visibility_after_terminate_visibility_timeout.
    send("g1", "g1-m1");
    send("g1", "g1-m2");
    send("g2", "g2-m1");
    List<ReceiveMessage.Message> got = receiveAll(2, 30);
    q.changeVisibility(got.get(0).receiptHandle(), 0, shard.now);
    assertEquals(List.of("g2-m1", "g1-m1"), receive(3));
  }

  @Test
  void aGroupUnlockedByDeletesTakesItsPlaceByItsHeadsSendOrder() {
    // As AWS answers test_fifo_message_group_visibility_after_delete.
    send("g1", "g1-m1");
    send("g2", "g2-m1");
    send("g1", "g1-m2");
    send("g2", "g2-m2");
    send("g1", "g1-m3");
    send("g1", "g1-m4");
    send("g3", "g3-m1");
    List<ReceiveMessage.Message> got = receiveAll(2, 30);
    assertEquals(List.of("g1-m1", "g1-m2"), bodies(got));
    q.delete(got.get(0).receiptHandle(), shard.now);
    q.delete(got.get(1).receiptHandle(), shard.now);
    if (paged) {
      // Only g2-m1 was resident: g2-m2 came in a page read within the receive, its group in flight.
      assertEquals(List.of("g2-m1", "g1-m3", "g1-m4", "g3-m1"), receive(10));
    } else {
      assertEquals(List.of("g2-m1", "g2-m2", "g1-m3", "g1-m4", "g3-m1"), receive(10));
    }
  }

  @Test
  void visibilityZeroReturnsGroupsBehindThoseNeverReceived() {
    // As AWS answers test_fifo_receive_message_with_zero_visibility_timeout.
    send("g1", "g1-m1");
    send("g2", "g2-m1");
    send("g2", "g2-m2");
    send("g3", "g3-m1");
    send("g1", "g1-m2");
    if (paged) {
      // The window held g1-m1, g2-m1 and g2-m2; g3-m1 and g1-m2 came in a page read within the next
      // receive, g1 in flight by then; the third receive sees every group whole.
      assertEquals(List.of("g1-m1", "g2-m1", "g2-m2"), bodies(receiveAll(3, 0)));
      assertEquals(List.of("g1-m1", "g2-m1", "g2-m2", "g3-m1"), bodies(receiveAll(10, 0)));
      assertEquals(List.of("g1-m1", "g1-m2", "g2-m1", "g2-m2", "g3-m1"), bodies(receiveAll(10, 0)));
      return;
    }
    assertEquals(List.of("g1-m1", "g1-m2", "g2-m1"), bodies(receiveAll(3, 0)));
    assertEquals(List.of("g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2"), bodies(receiveAll(10, 0)));
  }

  @Test
  void countsIncludeMessagesBlockedBehindALockedGroup() {
    for (String g : List.of("a", "b", "c")) {
      send(g, g + "1");
      send(g, g + "2");
    }
    assertEquals(List.of("a1"), receive(1));
    assertEquals(List.of("b1"), receive(1));
    assertEquals(4, q.approximateNumberOfMessages(shard.now));
    assertEquals(2, q.approximateNumberOfMessagesNotVisible());
  }

  @Test
  void sendsNeedAGroupAndADeduplicationIdOrContentBasedDeduplication() {
    SqsException noGroup = assertThrows(SqsException.class,
        () -> q.send(new NewMessage("x", null, null, null, null, null, "s", null), false, shard.now));
    assertEquals(ErrorCode.MISSING_PARAMETER, noGroup.code());
    SqsException batchNoGroup = assertThrows(SqsException.class,
        () -> q.checkBatch(List.of(new NewMessage("x", null, null, null, null, null, "s", null))));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, batchNoGroup.code());
    QueueState plain = shard.create("plain.fifo", Map.of("FifoQueue", "true"));
    SqsException noDedup = assertThrows(SqsException.class, () -> plain.send(in("g", "x"), false, shard.now));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, noDedup.code());
    assertEquals("The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided"
        + " explicitly", noDedup.getMessage());
  }

  @Test
  void aPerMessageDelayIsRejectedAndZeroStillGetsTheQueueDelay() {
    QueueState delayed = shard.create("delayed.fifo",
        Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true", "DelaySeconds", "5"));
    SqsException e = assertThrows(SqsException.class,
        () -> delayed.send(new NewMessage("x", 2, null, null, null, "g", "s", null), false, shard.now));
    assertEquals("Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not"
        + " valid for this queue type.", e.getMessage());
    delayed.send(new NewMessage("y", 0, null, null, null, "g", "s", null), false, shard.now);
    assertEquals(1, delayed.approximateNumberOfMessagesDelayed(shard.now));
    shard.advance(5_000);
    assertEquals(1, delayed.approximateNumberOfMessages(shard.now));
  }

  @Test
  void aChangedQueueDelayAppliesToMessagesStillDelayedInOrder() {
    QueueState delayed = shard.create("slow.fifo",
        Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true", "DelaySeconds", "60"));
    delayed.send(in("g", "first"), false, shard.now);
    shard.advance(1_000);
    delayed.send(in("g", "second"), false, shard.now);
    delayed.setAttributes(Map.of("DelaySeconds", "0"), shard.now);
    shard.advance(1);
    assertEquals(List.of("first", "second"), bodies(delayed.receive(spec(10, 30), shard.now)));
  }

  @Test
  void aMessageSentUndelayedAfterTheDelayWasLoweredWaitsForTheDelayedOneBeforeIt() {
    QueueState delayed = shard.create("lowered.fifo",
        Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true", "DelaySeconds", "10"));
    delayed.send(in("g", "A"), false, shard.now);
    shard.advance(5_000);
    delayed.setAttributes(Map.of("DelaySeconds", "0"), shard.now);
    delayed.send(in("g", "B"), false, shard.now);
    assertEquals(List.of(), bodies(delayed.receive(spec(10, 30), shard.now)));
    shard.advance(0);
    assertEquals(List.of("A", "B"), bodies(delayed.receive(spec(10, 30), shard.now)));
  }

  @Test
  void sequenceNumbersIncreaseStrictly() {
    BigInteger last = BigInteger.ZERO;
    for (int i = 0; i < 5; i++) {
      BigInteger n = new BigInteger(send("g" + (i % 2), "b" + i).sequenceNumber());
      assertTrue(n.compareTo(last) > 0);
      assertEquals(20, n.toString().length());
      last = n;
    }
    ReceiveMessage.Message m = receiveAll(1, 30).get(0);
    assertNotNull(m.attributes().get("SequenceNumber"));
    assertEquals(Digests.sha256Hex("b0"), m.attributes().get("MessageDeduplicationId"));
    assertEquals("g0", m.attributes().get("MessageGroupId"));
  }

  @Test
  void aDuplicateSucceedsWithTheOriginalIdForFiveMinutesEvenAfterDelete() {
    SendMessage.Response first = q.send(in("g", "a", "d1"), false, shard.now);
    SendMessage.Response again = q.send(in("g", "other body", "d1"), false, shard.now);
    assertEquals(first.messageId(), again.messageId());
    assertEquals(Digests.md5Hex("other body"), again.md5OfMessageBody());
    ReceiveMessage.Message m = receiveAll(10, 30).get(0);
    q.delete(m.receiptHandle(), shard.now);
    shard.advance(299_999);
    q.send(in("g", "a", "d1"), false, shard.now);
    assertEquals(0, q.approximateNumberOfMessages(shard.now));
    shard.advance(1);
    q.send(in("g", "a", "d1"), false, shard.now);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
  }

  @Test
  void deduplicationScopeIsTheOneSetAtCreation() {
    QueueState byGroup = shard.create("bygroup.fifo", Map.of("FifoQueue", "true", "DeduplicationScope", "messageGroup"));
    byGroup.send(in("g1", "x", "d"), false, shard.now);
    byGroup.send(in("g2", "x", "d"), false, shard.now);
    assertEquals(2, byGroup.approximateNumberOfMessages(shard.now));
    byGroup.setAttributes(Map.of("DeduplicationScope", "queue"), shard.now);
    byGroup.send(in("g3", "x", "d"), false, shard.now);
    assertEquals(3, byGroup.approximateNumberOfMessages(shard.now));
    q.send(in("g1", "x", "d"), false, shard.now);
    q.send(in("g2", "x", "d"), false, shard.now);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
  }

  @Test
  void purgeClearsTheDeduplicationHistoryAndReleasesItsMemory() {
    long before = shard.budget.usedBytes();
    q.send(in("g", "a", "d1"), false, shard.now);
    q.purge(shard.now);
    assertEquals(before, shard.budget.usedBytes());
    q.send(in("g", "a", "d1"), false, shard.now);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
  }

  @Test
  void theDeduplicationHistoryIsFreedWhenItsWindowPasses() {
    long before = shard.budget.usedBytes();
    ReceiveMessage.Message m;
    q.send(in("g", "a", "d1"), false, shard.now);
    m = receiveAll(1, 30).get(0);
    q.delete(m.receiptHandle(), shard.now);
    shard.advance(300_000);
    assertEquals(before, shard.budget.usedBytes());
  }

  @Test
  void anExpiredOrOldReceiptCannotDeleteButTheCurrentOneCan() {
    send("g", "m");
    ReceiveMessage.Message first = receiveAll(1, 30).get(0);
    shard.advance(30_000);
    SqsException expired = assertThrows(SqsException.class, () -> q.delete(first.receiptHandle(), shard.now));
    assertEquals("Value " + first.receiptHandle() + " for parameter ReceiptHandle is invalid. Reason: The receipt"
        + " handle has expired.", expired.getMessage());
    ReceiveMessage.Message second = receiveAll(1, 30).get(0);
    assertThrows(SqsException.class, () -> q.delete(first.receiptHandle(), shard.now));
    assertThrows(SqsException.class, () -> q.changeVisibility(first.receiptHandle(), 10, shard.now));
    q.changeVisibility(second.receiptHandle(), 60, shard.now);
    shard.advance(30_000);
    q.delete(second.receiptHandle(), shard.now);
    assertEquals(0, q.approximateNumberOfMessagesNotVisible());
  }

  @Test
  void aRetriedAttemptReturnsTheSameMessagesAndHandlesUntilOneChanges() {
    send("g", "m1");
    send("g", "m2");
    ReceiveSpec attempt = new ReceiveSpec(10, 30, spec(10, 30).selection(), "attempt-1");
    List<ReceiveMessage.Message> first = q.receive(attempt, shard.now);
    shard.advance(20_000);
    List<ReceiveMessage.Message> retry = q.receive(attempt, shard.now);
    assertEquals(first, retry);
    shard.advance(20_000); // the retry started the visibility again: still hidden at 40 s
    assertEquals(List.of(), receive(10));
    q.changeVisibility(first.get(0).receiptHandle(), 0, shard.now);
    List<ReceiveMessage.Message> fresh = q.receive(attempt, shard.now);
    assertEquals(List.of("m1"), bodies(fresh));
    assertTrue(!fresh.get(0).receiptHandle().equals(first.get(0).receiptHandle()));
  }

  @Test
  void theGroupOfADeletedLastMessageIsForgotten() {
    send("g", "m");
    ReceiveMessage.Message m = receiveAll(1, 30).get(0);
    q.delete(m.receiptHandle(), shard.now);
    send("g", "n");
    assertEquals(List.of("n"), receive(1));
    assertNull(q.receive(spec(1, 30), shard.now).stream().findFirst().orElse(null));
  }
}
