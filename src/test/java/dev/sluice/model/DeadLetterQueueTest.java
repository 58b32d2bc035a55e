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
 * Redrive policies, dead letters and move tasks (the SQS dead-letter queues guide), with a manual
 * clock; in memory mode and paged (window 3, a store that commits and reads at once), where dead
 * letters and redriven messages may be spilled and read back, and a client sees the same.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"memory", "paged"})
class DeadLetterQueueTest {
  final ShardFixture shard;
  final QueueState dlq;
  final String dlqArn;

  DeadLetterQueueTest(String mode) {
    shard = ShardFixture.of(mode);
    dlq = shard.create("dlq", Map.of());
    dlqArn = dlq.metadata().arn();
  }

  @AfterEach
  void noPageReadTwiceAndCountsNeverResynchronised() {
    shard.assertBacklogsSound();
  }

  QueueState source(String name, int maxReceiveCount) {
    return shard.create(name, Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"" + maxReceiveCount + "\"}"));
  }

  @Test
  void thePolicyIsValidatedAndShownWithANumericCount() {
    QueueState src = source("src", 3);
    assertEquals("{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":3}",
        src.attributes().stored().get("RedrivePolicy"));
    for (String bad : List.of("{}", "not json", "{\"deadLetterTargetArn\":\"" + dlqArn + "\"}",
        "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":0}",
        "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":1001}",
        "{\"deadLetterTargetArn\":\"" + dlqArn + ".fifo\",\"maxReceiveCount\":1}")) {
      SqsException e = assertThrows(SqsException.class,
          () -> src.setAttributes(Map.of("RedrivePolicy", bad), shard.now), bad);
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code(), bad);
    }
    src.setAttributes(Map.of("RedrivePolicy", ""), shard.now);
    assertEquals(null, src.attributes().redrivePolicy());
  }

  @Test
  void theReceiveAfterMaxReceiveCountMovesTheMessageKeepingItsHistory() {
    QueueState src = source("src", 1);
    src.send(new NewMessage("poison", null, null, null, null, null, "sender", "Root=1-abc"), false, shard.now);
    long sentAt = shard.now;
    ReceiveMessage.Message first = src.receive(spec(1, 30), shard.now).get(0);
    shard.advance(30_000);
    assertEquals(List.of(), src.receive(spec(10, 30), shard.now));
    assertEquals(0, src.approximateNumberOfMessages(shard.now) + src.approximateNumberOfMessagesNotVisible());
    ReceiveMessage.Message dead = dlq.receive(spec(1, 30), shard.now).get(0);
    assertEquals(first.messageId(), dead.messageId());
    assertEquals("poison", dead.body());
    assertEquals("2", dead.attributes().get("ApproximateReceiveCount"));
    assertEquals(Long.toString(sentAt), dead.attributes().get("SentTimestamp"));
    assertEquals("Root=1-abc", dead.attributes().get("AWSTraceHeader"));
    assertEquals(src.metadata().arn(), dead.attributes().get("DeadLetterQueueSourceArn"));
  }

  @Test
  void aReceiveGoesOnWithTheNextMessageAfterMovingOne() {
    QueueState src = source("src", 1);
    src.send(message("poison"), false, shard.now);
    src.receive(spec(1, 0), shard.now);
    src.send(message("good"), false, shard.now);
    assertEquals(List.of("good"), src.receive(spec(10, 30), shard.now).stream().map(ReceiveMessage.Message::body).toList());
    assertEquals(1, dlq.approximateNumberOfMessages(shard.now));
  }

  @Test
  void aFifoDeadLetterKeepsItsGroupAndTakesItsMessageIdAsDeduplicationId() {
    QueueState fifoDlq = shard.create("dlq.fifo", Map.of("FifoQueue", "true"));
    QueueState src = shard.create("src.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true",
        "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + fifoDlq.metadata().arn() + "\",\"maxReceiveCount\":2}"));
    src.send(new NewMessage("m1", null, null, null, null, "g", "s", null), false, shard.now);
    src.send(new NewMessage("m2", null, null, null, null, "g", "s", null), false, shard.now);
    assertEquals("m1", src.receive(spec(1, 0), shard.now).get(0).body());
    assertEquals("m1", src.receive(spec(1, 0), shard.now).get(0).body());
    // The third receive moves m1 and the group goes on with m2.
    assertEquals("m2", src.receive(spec(1, 30), shard.now).get(0).body());
    ReceiveMessage.Message dead = fifoDlq.receive(spec(1, 30), shard.now).get(0);
    assertEquals(dead.messageId(), dead.attributes().get("MessageDeduplicationId"));
    assertEquals("g", dead.attributes().get("MessageGroupId"));
  }

  @Test
  void deadLettersExpireByTheirOriginalSentTime() {
    dlq.setAttributes(Map.of("MessageRetentionPeriod", "600"), shard.now);
    QueueState src = source("src", 1);
    src.send(message("old"), false, shard.now);
    src.receive(spec(1, 0), shard.now);
    shard.advance(500_000);
    dlq.send(message("young"), false, shard.now);
    src.receive(spec(1, 0), shard.now); // moves "old", sent 500 s ago
    assertEquals(2, dlq.approximateNumberOfMessages(shard.now));
    shard.advance(100_000);
    assertEquals(List.of("young"), dlq.receive(spec(10, 30), shard.now).stream().map(ReceiveMessage.Message::body).toList());
  }

  @Test
  void whileTheDeadLetterQueueIsMissingMessagesAreDeliveredAsWithoutAPolicy() {
    QueueState src = source("src", 1);
    shard.registry.delete("dlq", shard.now);
    src.send(message("poison"), false, shard.now);
    src.receive(spec(1, 0), shard.now);
    List<ReceiveMessage.Message> again = src.receive(spec(1, 30), shard.now);
    assertEquals("2", again.get(0).attributes().get("ApproximateReceiveCount"));
  }

  @Test
  void aLongPollIsNotAnsweredEmptyWhenWhatItFoundWentToTheDeadLetterQueue() {
    QueueState src = source("src", 1);
    src.send(message("poison"), false, shard.now);
    src.receive(spec(1, 5), shard.now);
    ShardFixture.Recorder waiting = new ShardFixture.Recorder(spec(1, 30));
    src.park(waiting.waiter, shard.now + 20_000);
    shard.advance(5_000); // the poison message comes back and moves on
    assertEquals(List.of(), waiting.completions);
    assertEquals(1, dlq.approximateNumberOfMessages(shard.now));
    src.send(message("good"), false, shard.now);
    assertEquals("good", waiting.completions.get(0).get(0).body());
  }

  @Test
  void messagesAFailedTaskHandsBackKeepTheirPlaceInTheirFifoGroup() {
    QueueState fifoDlq = shard.create("dlq.fifo", Map.of("FifoQueue", "true"));
    shard.create("src.fifo", Map.of("FifoQueue", "true",
        "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + fifoDlq.metadata().arn() + "\",\"maxReceiveCount\":1}"));
    QueueState gone = shard.create("gone.fifo", Map.of("FifoQueue", "true"));
    for (String b : List.of("m1", "m2", "m3")) {
      fifoDlq.send(new NewMessage(b, null, null, null, b, "g", "s", null), false, shard.now);
    }
    MessageMoveTask task = fifoDlq.startMoveTask(gone.metadata().arn(), 2, shard.mover, shard.now);
    shard.registry.delete("gone.fifo", shard.now);
    shard.advance(0);
    assertEquals(MessageMoveTask.Status.FAILED, task.status());
    assertEquals(List.of("m1", "m2", "m3"),
        fifoDlq.receive(spec(10, 30), shard.now).stream().map(ReceiveMessage.Message::body).toList());
  }

  @Test
  void aMoveTaskRedrivesToTheSourceAsNewMessagesAtTheGivenRate() {
    QueueState src = source("src", 1);
    for (int i = 0; i < 3; i++) {
      src.send(message("m" + i), false, shard.now);
    }
    src.receive(spec(10, 0), shard.now);
    List<ReceiveMessage.Message> moved = src.receive(spec(10, 30), shard.now);
    assertEquals(List.of(), moved);
    assertEquals(3, dlq.approximateNumberOfMessages(shard.now));
    String firstDeadId = dlq.receive(spec(1, 0), shard.now).get(0).messageId();

    MessageMoveTask task = dlq.startMoveTask(null, 1, shard.mover, shard.now);
    assertEquals(3, task.approximateNumberOfMessagesToMove());
    SqsException second = assertThrows(SqsException.class, () -> dlq.startMoveTask(null, null, shard.mover, shard.now));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, second.code());
    shard.advance(0);
    assertEquals(1, task.approximateNumberOfMessagesMoved());
    shard.advance(999);
    assertEquals(1, task.approximateNumberOfMessagesMoved());
    shard.advance(1);
    assertEquals(2, task.approximateNumberOfMessagesMoved());
    shard.advance(1000);
    assertEquals(MessageMoveTask.Status.COMPLETED, task.status());
    assertEquals(0, dlq.approximateNumberOfMessages(shard.now));
    List<ReceiveMessage.Message> back = src.receive(spec(10, 30), shard.now);
    assertEquals(3, back.size());
    assertTrue(back.stream().noneMatch(m -> m.messageId().equals(firstDeadId)));
    assertTrue(back.stream().allMatch(m -> m.attributes().get("ApproximateReceiveCount").equals("1")));
    assertTrue(back.stream().allMatch(m -> m.attributes().get("DeadLetterQueueSourceArn") == null));
  }

  @Test
  void aCancelledTaskKeepsWhatItMoved() {
    QueueState other = shard.create("other", Map.of());
    for (int i = 0; i < 4; i++) {
      dlq.send(message("m" + i), false, shard.now);
    }
    MessageMoveTask task = dlq.startMoveTask(other.metadata().arn(), 1, shard.mover, shard.now);
    shard.advance(1000);
    assertEquals(2, task.cancel());
    assertEquals(MessageMoveTask.Status.CANCELLED, task.status());
    shard.advance(5000);
    assertEquals(2, other.approximateNumberOfMessages(shard.now));
    assertEquals(2, dlq.approximateNumberOfMessages(shard.now));
  }

  @Test
  void aTaskWhoseDestinationIsGoneFailsAndKeepsTheMessages() {
    QueueState other = shard.create("other", Map.of());
    dlq.send(message("m"), false, shard.now);
    MessageMoveTask task = dlq.startMoveTask(other.metadata().arn(), null, shard.mover, shard.now);
    shard.registry.delete("other", shard.now);
    shard.advance(0);
    assertEquals(MessageMoveTask.Status.FAILED, task.status());
    assertEquals("AWS.SimpleQueueService.NonExistentQueue", task.failureReason());
    assertEquals(1, dlq.approximateNumberOfMessages(shard.now));
  }

  @Test
  void theMemoryChargeTravelsWithMovedMessages() {
    long before = shard.budget.usedBytes();
    QueueState src = source("src", 1);
    src.send(message("poison"), false, shard.now);
    src.receive(spec(1, 0), shard.now);
    src.receive(spec(1, 0), shard.now);
    ReceiveMessage.Message dead = dlq.receive(spec(1, 30), shard.now).get(0);
    assertNotEquals(before, shard.budget.usedBytes());
    dlq.delete(dead.receiptHandle(), shard.now);
    assertEquals(before, shard.budget.usedBytes());
  }
}
