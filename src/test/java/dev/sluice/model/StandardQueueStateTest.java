package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A standard queue's actions, in memory mode and in paged mode with a head window of 3 and a store
 * that commits and reads at once: a small window must not change what a client sees (design page
 * §4, step 3). Tests that build their own shard (a small budget, an in-flight cap) are memory mode.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"memory", "paged"})
class StandardQueueStateTest {
  final String mode;
  final ShardFixture shard;
  final QueueState q;

  StandardQueueStateTest(String mode) {
    this.mode = mode;
    shard = ShardFixture.of(mode);
    q = shard.create("orders", Map.of());
  }

  @AfterEach
  void noPageReadTwiceAndCountsNeverResynchronised() {
    shard.assertBacklogsSound();
  }

  List<ReceiveMessage.Message> receive(int max) {
    return q.receive(spec(max, 30), shard.now);
  }

  static String receiveCount(ReceiveMessage.Message m) {
    return m.attributes().get("ApproximateReceiveCount");
  }

  @Test
  void threeSendsFourReceivesWithoutDeleteLeaveTheFourthEmpty() {
    for (String b : List.of("a", "b", "c")) {
      q.send(message(b), false, shard.now);
    }
    assertEquals("a", receive(1).get(0).body());
    assertEquals("b", receive(1).get(0).body());
    assertEquals("c", receive(1).get(0).body());
    assertTrue(receive(1).isEmpty());
    assertEquals(0, q.approximateNumberOfMessages(shard.now));
    assertEquals(3, q.approximateNumberOfMessagesNotVisible());
  }

  @Test
  void messageComesBackAfterItsVisibilityTimeoutWithANewHandleAndCountTwo() {
    q.send(message("a"), false, shard.now);
    ReceiveMessage.Message first = receive(1).get(0);
    shard.advance(29_999);
    assertTrue(receive(1).isEmpty());
    shard.advance(1);
    ReceiveMessage.Message second = receive(1).get(0);
    assertEquals("a", second.body());
    assertEquals("2", receiveCount(second));
    assertNotEquals(first.receiptHandle(), second.receiptHandle());
    assertEquals(first.attributes().get("ApproximateFirstReceiveTimestamp"),
        second.attributes().get("ApproximateFirstReceiveTimestamp"));
  }

  @Test
  void visibilityZeroLeavesTheMessageReceivableAtOnce() {
    q.send(message("a"), false, shard.now);
    assertEquals(1, q.receive(spec(1, 0), shard.now).size());
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    assertEquals("2", receiveCount(receive(1).get(0)));
  }

  @Test
  void perMessageDelayOverridesTheQueueDelay() {
    QueueState delayed = shard.create("delayed", Map.of("DelaySeconds", "10"));
    delayed.send(message("queue-delay"), false, shard.now);
    delayed.send(message("no-delay", 0), false, shard.now);
    delayed.send(message("short", 2), false, shard.now);
    assertEquals(2, delayed.approximateNumberOfMessagesDelayed(shard.now));
    assertEquals("no-delay", delayed.receive(spec(10, 30), shard.now).get(0).body());
    shard.advance(2_000);
    assertEquals("short", delayed.receive(spec(10, 30), shard.now).get(0).body());
    shard.advance(7_999);
    assertTrue(delayed.receive(spec(10, 30), shard.now).isEmpty());
    shard.advance(1);
    assertEquals("queue-delay", delayed.receive(spec(10, 30), shard.now).get(0).body());
  }

  @Test
  void delayOutsideItsRangeIsRejected() {
    SqsException e = assertThrows(SqsException.class, () -> q.send(message("a", 901), false, shard.now));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code());
  }

  @Test
  void retentionExpiresMessagesInEveryStateAndReleasesMemory() {
    // Its own memory-mode shard in both modes: paged, the 100 s delay is beyond the delayed horizon,
    // so its row is durable-only, and durable-only rows expire only when read back until plan step
    // 5 (BacklogTest covers that).
    ShardFixture shard = ShardFixture.of("memory");
    QueueState q = shard.create("orders", Map.of());
    q.setAttributes(Map.of("MessageRetentionPeriod", "60"), shard.now);
    q.send(message("in-flight"), false, shard.now);
    q.receive(spec(1, 120), shard.now);
    q.send(message("visible"), false, shard.now);
    q.send(message("delayed", 100), false, shard.now);
    shard.advance(59_999);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    shard.advance(1);
    assertEquals(0, q.approximateNumberOfMessages(shard.now));
    assertEquals(0, q.approximateNumberOfMessagesNotVisible());
    assertEquals(0, q.approximateNumberOfMessagesDelayed(shard.now));
    assertEquals(0, shard.budget.usedBytes());
  }

  @Test
  void shorteningRetentionExpiresOldMessagesAtTheNewDeadline() {
    q.send(message("old"), false, shard.now);
    shard.advance(120_000);
    q.send(message("young"), false, shard.now);
    q.setAttributes(Map.of("MessageRetentionPeriod", "60"), shard.now);
    shard.advance(1);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    assertEquals("young", receive(1).get(0).body());
  }

  @Test
  void deleteRemovesTheMessageAndDeletingAgainSucceeds() {
    q.send(message("a"), false, shard.now);
    String handle = receive(1).get(0).receiptHandle();
    q.delete(handle, shard.now);
    q.delete(handle, shard.now);
    shard.advance(60_000);
    assertTrue(receive(1).isEmpty());
    assertEquals(0, shard.budget.usedBytes());
  }

  @Test
  void aStaleHandleStillDeletesOnAStandardQueue() {
    q.send(message("a"), false, shard.now);
    String old = receive(1).get(0).receiptHandle();
    shard.advance(30_000);
    receive(1);
    q.delete(old, shard.now);
    assertEquals(0, q.approximateNumberOfMessagesNotVisible());
  }

  @Test
  void garbageForeignAndTamperedHandlesAreInvalid() {
    QueueState other = shard.create("other", Map.of());
    other.send(message("x"), false, shard.now);
    String foreign = other.receive(spec(1, 30), shard.now).get(0).receiptHandle();
    q.send(message("mine"), false, shard.now);
    String own = receive(1).get(0).receiptHandle();
    char middle = own.charAt(10);
    String tampered = own.substring(0, 10) + (middle == 'A' ? 'B' : 'A') + own.substring(11);
    for (String bad : List.of("garbage", foreign, tampered)) {
      SqsException e = assertThrows(SqsException.class, () -> q.delete(bad, shard.now));
      assertEquals(ErrorCode.RECEIPT_HANDLE_IS_INVALID, e.code());
    }
  }

  @Test
  void changeVisibilityToZeroMakesTheMessageVisibleOnceOnly() {
    q.send(message("a"), false, shard.now);
    String handle = receive(1).get(0).receiptHandle();
    q.changeVisibility(handle, 0, shard.now);
    ReceiveMessage.Message again = receive(1).get(0);
    assertEquals("2", receiveCount(again));
    // The next receive used the queue's 30 s again, not the 0 of the change.
    assertTrue(receive(1).isEmpty());
  }

  @Test
  void changeVisibilityExtendsFromNow() {
    q.send(message("a"), false, shard.now);
    String handle = receive(1).get(0).receiptHandle();
    shard.advance(20_000);
    q.changeVisibility(handle, 60, shard.now);
    shard.advance(59_999);
    assertTrue(receive(1).isEmpty());
    shard.advance(1);
    assertEquals(1, receive(1).size());
  }

  @Test
  void totalVisibilityCannotPassTwelveHoursFromTheReceive() {
    q.send(message("a"), false, shard.now);
    String handle = q.receive(spec(1, 43_200), shard.now).get(0).receiptHandle();
    shard.advance(100_000);
    SqsException e = assertThrows(SqsException.class, () -> q.changeVisibility(handle, 43_200, shard.now));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code());
    assertTrue(e.getMessage().endsWith("Total VisibilityTimeout for the message is beyond the limit [43200 seconds]"));
    q.changeVisibility(handle, 43_100, shard.now);
  }

  @Test
  void changeVisibilityAfterExpiryHasNoEffectAndAfterDeleteIsAnError() {
    q.send(message("a"), false, shard.now);
    String handle = receive(1).get(0).receiptHandle();
    shard.advance(30_000);
    q.changeVisibility(handle, 100, shard.now);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    q.delete(receive(1).get(0).receiptHandle(), shard.now);
    SqsException gone = assertThrows(SqsException.class, () -> q.changeVisibility(handle, 10, shard.now));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, gone.code());
    assertTrue(gone.getMessage().endsWith("Message does not exist or is not available for visibility timeout change."));
  }

  @Test
  void purgeRemovesEveryMessageAndIsAllowedOncePerMinute() {
    q.send(message("a"), false, shard.now);
    receive(1);
    q.send(message("b"), false, shard.now);
    q.send(message("c", 60), false, shard.now);
    q.purge(shard.now);
    assertEquals(0, q.approximateNumberOfMessages(shard.now) + q.approximateNumberOfMessagesNotVisible()
        + q.approximateNumberOfMessagesDelayed(shard.now));
    assertEquals(0, shard.budget.usedBytes());
    q.send(message("after"), false, shard.now);
    SqsException e = assertThrows(SqsException.class, () -> q.purge(shard.now + 59_999));
    assertEquals(ErrorCode.PURGE_QUEUE_IN_PROGRESS, e.code());
    assertEquals("Only one PurgeQueue operation on orders is allowed every 60 seconds.", e.getMessage());
    shard.advance(60_000);
    assertEquals("after", receive(1).get(0).body());
    q.purge(shard.now);
  }

  @Test
  void memoryBudgetRefusesSendsWithARetryableErrorAndRecoversOnDelete() {
    // Room for exactly two of these messages: each is charged its record in the slab and the overhead.
    ShardFixture small = new ShardFixture(2 * heldBytes(message("x".repeat(100))), 10, 10, 100);
    QueueState tight = small.create("tight", Map.of());
    tight.send(message("x".repeat(100)), false, small.now);
    tight.send(message("y".repeat(100)), false, small.now);
    SqsException e = assertThrows(SqsException.class, () -> tight.send(message("z".repeat(100)), false, small.now));
    assertEquals(ErrorCode.REQUEST_THROTTLED, e.code());
    tight.delete(tight.receive(spec(1, 30), small.now).get(0).receiptHandle(), small.now);
    tight.send(message("z".repeat(100)), false, small.now);
  }

  @Test
  void messagesAreChargedTheirRecordInTheSlabAsUtf8() {
    q.send(message("x".repeat(1000)), false, shard.now);
    // The record: an 8-byte header, version and presence bytes, the body and sender with their lengths.
    int ascii = 8 + 2 + 2 + 1000 + 1 + "sender".length() + ArrivingMessages.MESSAGE_OVERHEAD_BYTES;
    assertEquals(ascii, shard.budget.usedBytes());
    q.send(message("x".repeat(999) + "\u20ac"), false, shard.now);
    // 1002 bytes of UTF-8, as the slab holds them (no longer 2000 bytes of UTF-16 on the heap).
    assertEquals(ascii + 2, shard.budget.usedBytes() - ascii);
  }

  private static int heldBytes(NewMessage m) {
    return ArrivingMessages.heldBytes(ArrivingMessages.content(m, null).pack());
  }

  @Test
  void inflightCapStopsReceivesUntilAMessageIsDeleted() {
    ShardFixture capped = new ShardFixture(1L << 30, 10, 10, 2);
    QueueState c = capped.create("capped", Map.of());
    for (int i = 0; i < 3; i++) {
      c.send(message("m" + i), false, capped.now);
    }
    List<ReceiveMessage.Message> got = c.receive(spec(10, 30), capped.now);
    assertEquals(2, got.size());
    assertTrue(c.inflightLimitReached());
    assertTrue(c.receive(spec(10, 30), capped.now).isEmpty());
    c.delete(got.get(0).receiptHandle(), capped.now);
    assertEquals("m2", c.receive(spec(10, 30), capped.now).get(0).body());
  }

  @Test
  void oversizedMessagesAreRejectedAndExactlyMaxIsAccepted() {
    QueueState small = shard.create("small", Map.of("MaximumMessageSize", "1024"));
    small.send(message("x".repeat(1024)), false, shard.now);
    SqsException e = assertThrows(SqsException.class, () -> small.send(message("x".repeat(1025)), false, shard.now));
    assertEquals("One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.", e.getMessage());
  }

  @Test
  void aDeduplicationIdIsRefusedWithTheReasonAwsGivesForAFifoDelay() {
    SqsException e = assertThrows(SqsException.class, () -> q.send(
        new NewMessage("x", null, null, null, "d-1", null, "s", null), false, shard.now));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code());
    assertEquals("Value d-1 for parameter MessageDeduplicationId is invalid. Reason: The request include parameter"
        + " that is not valid for this queue type.", e.getMessage());
    assertEquals(0, q.approximateNumberOfMessages(shard.now));
  }
}
