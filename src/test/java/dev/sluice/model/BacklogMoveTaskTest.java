package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ReceiveMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Move tasks over a paged dead-letter queue (design page §2.13) whose store answers page reads
 * only later, as PostgreSQL does: a step that finds nothing resident while durable-only rows are
 * due waits for the next page instead of reporting the task complete.
 */
class BacklogMoveTaskTest {
  final FakeBacklogStore fake = FakeBacklogStore.manual();
  final ShardFixture shard = ShardFixture.paged(ShardFixture.window(3), fake);
  final QueueState dlq = shard.create("dlq", Map.of());
  final QueueState orders = shard.create("orders", Map.of());

  @AfterEach
  void noRowReadTwice() {
    shard.assertBacklogsSound();
  }

  void sendToDlq(int messages) {
    for (int i = 0; i < messages; i++) {
      dlq.send(message("m" + i), false, shard.now);
    }
    fake.commitAll();
  }

  /** Commits every write and answers every read, each followed by the turns it schedules. */
  void settle() {
    fake.commitAll();
    shard.advance(0);
    while (!fake.reads.isEmpty()) {
      fake.answer(0);
      fake.commitAll();
      shard.advance(0);
    }
  }

  @Test
  void aTaskOverFiftyDurableOnlyMessagesMovesAllOfThemBeforeItCompletes() {
    sendToDlq(50);
    assertEquals(47, dlq.backlog().counts().pagedOut(), "all but a window of 3 are durable-only");
    MessageMoveTask task = dlq.startMoveTask(orders.metadata().arn(), null, shard.mover, shard.now);
    assertEquals(50, task.approximateNumberOfMessagesToMove());

    shard.advance(0);
    assertEquals(MessageMoveTask.Status.RUNNING, task.status(), "waits for the page it asked for");
    assertEquals(3, task.approximateNumberOfMessagesMoved());
    assertEquals(1, fake.reads.stream().filter(r -> r.queue == dlq).count());

    for (int rounds = 0; task.status() == MessageMoveTask.Status.RUNNING; rounds++) {
      assertTrue(rounds < 100, "no progress: " + task.approximateNumberOfMessagesMoved() + " moved");
      settle();
    }
    assertEquals(MessageMoveTask.Status.COMPLETED, task.status());
    assertEquals(50, task.approximateNumberOfMessagesMoved());
    fake.commitAll(); // the last step's copies, each deleting its origin row
    assertEquals(0, dlq.approximateNumberOfMessages(shard.now));
    assertEquals(0, dlq.backlog().counts().pagedOut());
    assertTrue(fake.rows(dlq.metadata().generation()).isEmpty(), "every row left the dead-letter queue");
    assertEquals(50, orders.approximateNumberOfMessages(shard.now));

    List<String> got = new ArrayList<>();
    for (int rounds = 0; got.size() < 50 && rounds < 100; rounds++) {
      orders.receive(spec(10, 30), shard.now).stream().map(ReceiveMessage.Message::body).forEach(got::add);
      settle();
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      expected.add("m" + i);
    }
    assertEquals(expected, got, "each exactly once, in the dead-letter queue's order");
  }

  @Test
  void aPurgeWhileTheTaskWaitsCompletesItWithWhatItMoved() {
    sendToDlq(10);
    MessageMoveTask task = dlq.startMoveTask(orders.metadata().arn(), null, shard.mover, shard.now);
    shard.advance(0);
    assertEquals(MessageMoveTask.Status.RUNNING, task.status());
    dlq.purge(shard.now);
    shard.advance(0);
    assertEquals(MessageMoveTask.Status.COMPLETED, task.status(), "no page comes for purged rows");
    assertEquals(3, task.approximateNumberOfMessagesMoved());
  }

  @Test
  void aMessageVisibleAgainWhileTheTaskWaitsIsMovedWithoutWaitingForThePage() {
    sendToDlq(5);
    assertEquals(List.of("m0"),
        dlq.receive(spec(1, 1), shard.now).stream().map(ReceiveMessage.Message::body).toList());
    MessageMoveTask task = dlq.startMoveTask(orders.metadata().arn(), null, shard.mover, shard.now);
    assertEquals(4, task.approximateNumberOfMessagesToMove());
    shard.advance(0);
    assertEquals(2, task.approximateNumberOfMessagesMoved(), "m1 and m2; m3 and m4 are durable-only");
    assertEquals(1, fake.reads.size(), "the read is asked for, and not answered yet");
    shard.advance(1_000); // m0's visibility timeout runs out
    assertEquals(3, task.approximateNumberOfMessagesMoved());
    assertEquals(MessageMoveTask.Status.RUNNING, task.status());
    settle();
    assertEquals(MessageMoveTask.Status.COMPLETED, task.status());
    assertEquals(4, task.approximateNumberOfMessagesMoved(), "as many as were visible when it started");
    assertEquals(1, dlq.approximateNumberOfMessages(shard.now));
  }

  @Test
  void withAStoreThatReadsAtOnceNoTaskEverWaits() {
    FakeBacklogStore eager = FakeBacklogStore.eager();
    ShardFixture s = ShardFixture.paged(ShardFixture.window(3), eager);
    QueueState from = s.create("dlq", Map.of());
    QueueState to = s.create("orders", Map.of());
    for (int i = 0; i < 50; i++) {
      from.send(message("m" + i), false, s.now);
    }
    MessageMoveTask task = from.startMoveTask(to.metadata().arn(), null, s.mover, s.now);
    s.advance(0);
    assertEquals(MessageMoveTask.Status.COMPLETED, task.status());
    assertEquals(50, task.approximateNumberOfMessagesMoved());
    assertEquals(50, to.approximateNumberOfMessages(shard.now));
    s.assertBacklogsSound();
  }
}
