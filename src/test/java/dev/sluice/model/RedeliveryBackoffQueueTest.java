package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A queue's redelivery backoff under a manual clock and a seeded random source: receive and
 * abandon, and the message comes back after its visibility plus a full-jitter wait; in memory mode
 * and paged (window 3), where received messages stay resident.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"memory", "paged"})
class RedeliveryBackoffQueueTest {
  final ShardFixture shard;

  RedeliveryBackoffQueueTest(String mode) {
    shard = ShardFixture.of(mode);
  }

  @AfterEach
  void noPageReadTwiceAndCountsNeverResynchronised() {
    shard.assertBacklogsSound();
  }

  QueueState queue(String name, Map<String, String> attributes, int baseSeconds, int maxSeconds, long seed) {
    QueueState q = shard.create(name, attributes);
    q.setRedeliveryBackoff(new RedeliveryBackoff(baseSeconds, maxSeconds));
    q.drawBackoffFrom(new SplittableRandom(seed));
    return q;
  }

  /** The resident message with this id (white box: its state and due time). */
  static Message resident(QueueState q, String messageId) {
    Message[] found = new Message[1];
    q.forEachResident(m -> {
      if (m.messageId().equals(messageId)) {
        found[0] = m;
      }
    });
    assertNotNull(found[0], messageId);
    return found[0];
  }

  /** Steps the clock 10 ms at a time until a receive gets a message; the time waited. */
  long waitForRedelivery(QueueState q, int visibilitySeconds, List<ReceiveMessage.Message> out) {
    long from = shard.now;
    while (true) {
      List<ReceiveMessage.Message> got = q.receive(spec(1, visibilitySeconds), shard.now);
      if (!got.isEmpty()) {
        out.add(got.get(0));
        return shard.now - from;
      }
      assertTrue(shard.now - from < 100_000, "never came back");
      shard.advance(10);
    }
  }

  @Test
  void abandonedAgainAndAgainAMessageComesBackAfterItsVisibilityAndAGrowingJitteredWait() {
    QueueState q = queue("q", Map.of(), 1, 8, 7);
    q.send(message("m"), false, shard.now);
    List<ReceiveMessage.Message> got = new ArrayList<>(q.receive(spec(1, 1), shard.now));
    for (int n = 1; n <= 6; n++) {
      long gap = waitForRedelivery(q, 1, got);
      long ceiling = Math.min(8, 1L << (n - 1)) * 1000;
      // Visible again after its 1 s visibility plus a wait in [0, ceiling] (10 ms steps).
      assertTrue(gap >= 1_000 && gap <= 1_000 + ceiling + 10, "receive " + n + ": gap " + gap + " ms");
      assertEquals(Integer.toString(n + 1), got.get(got.size() - 1).attributes().get("ApproximateReceiveCount"));
    }
  }

  @Test
  void theWaitsOfManyMessagesStayUnderTheCeilingAndSpreadOverIt() {
    QueueState q = queue("q", Map.of(), 2, 60, 11);
    for (int i = 0; i < 400; i++) {
      q.send(message("m" + i), false, shard.now);
    }
    for (int n = 1; n <= 3; n++) {
      List<ReceiveMessage.Message> got = new ArrayList<>();
      while (got.size() < 400) {
        List<ReceiveMessage.Message> batch = q.receive(spec(10, 5), shard.now);
        if (batch.isEmpty()) {
          shard.advance(1_000);
        }
        got.addAll(batch);
      }
      long expiry = shard.now + 5_000;
      shard.advance(5_000); // every visibility runs out now: in backoff, but for a draw of exactly 0
      assertEquals(400, q.messagesInBackoff() + q.approximateNumberOfMessages(shard.now));
      assertTrue(q.messagesInBackoff() > 390);
      assertEquals(q.messagesInBackoff(), q.approximateNumberOfMessagesDelayed(shard.now));
      assertEquals(0, q.approximateNumberOfMessagesNotVisible());
      long ceiling = 2_000L << (n - 1);
      int low = 0;
      int high = 0;
      for (ReceiveMessage.Message m : got) {
        Message r = resident(q, m.messageId());
        long wait = r.state() == MessageState.READY ? 0 : r.visibleAtMillis() - expiry;
        assertTrue(wait >= 0 && wait <= ceiling, "wait " + wait + " after receive " + n);
        low += wait < ceiling / 4 ? 1 : 0;
        high += wait > ceiling * 3 / 4 ? 1 : 0;
      }
      assertTrue(low > 60 && high > 60, "spread after receive " + n + ": " + low + " low, " + high + " high");
      shard.advance(ceiling); // all visible again
      assertEquals(0, q.messagesInBackoff());
      assertEquals(400, q.approximateNumberOfMessages(shard.now));
    }
  }

  @Test
  void inBackoffAMessageCountsAsDelayedAndNotAsNotVisible() {
    QueueState q = queue("q", Map.of(), 30, 30, 1);
    q.send(message("m"), false, shard.now);
    String id = q.receive(spec(1, 1), shard.now).get(0).messageId();
    assertEquals(1, q.approximateNumberOfMessagesNotVisible());
    shard.advance(1_000);
    Message m = resident(q, id);
    if (m.state() == MessageState.BACKOFF) {
      assertEquals(1, q.approximateNumberOfMessagesDelayed(shard.now));
      assertEquals(0, q.approximateNumberOfMessagesNotVisible());
      assertEquals(0, q.approximateNumberOfMessages(shard.now));
      assertEquals(List.of(), q.receive(spec(1, 1), shard.now));
    }
    shard.advance(30_000);
    assertEquals(0, q.approximateNumberOfMessagesDelayed(shard.now));
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
  }

  @Test
  void itReachesTheDeadLetterQueueOnTheReceiveAfterMaxReceiveCountWithoutAWaitFirst() {
    QueueState dlq = shard.create("dlq", Map.of());
    QueueState q = queue("src", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + dlq.metadata().arn() + "\",\"maxReceiveCount\":3}"), 1, 4, 3);
    q.send(message("poison"), false, shard.now);
    List<ReceiveMessage.Message> got = new ArrayList<>(q.receive(spec(1, 1), shard.now));
    waitForRedelivery(q, 1, got);
    waitForRedelivery(q, 1, got);
    assertEquals(3, got.size());
    shard.advance(1_000); // the third visibility runs out: bound for the DLQ, it waits no backoff
    assertEquals(0, q.messagesInBackoff());
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    assertEquals(List.of(), q.receive(spec(1, 1), shard.now)); // the fourth receive moves it
    assertEquals(0, q.approximateNumberOfMessages(shard.now) + q.approximateNumberOfMessagesDelayed(shard.now)
        + q.approximateNumberOfMessagesNotVisible());
    ReceiveMessage.Message dead = dlq.receive(spec(1, 30), shard.now).get(0);
    assertEquals(got.get(0).messageId(), dead.messageId());
    assertEquals("4", dead.attributes().get("ApproximateReceiveCount"));
  }

  @Test
  void aFifoMessageInBackoffKeepsItsGroupLockedAndItsPlace() {
    QueueState q = queue("q.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"), 20, 20, 5);
    for (String body : List.of("a1", "a2", "a3")) {
      q.send(new NewMessage(body, null, null, null, null, "a", "s", null), false, shard.now);
    }
    q.send(new NewMessage("b1", null, null, null, null, "b", "s", null), false, shard.now);
    assertEquals(List.of("a1", "a2"), bodies(q.receive(spec(2, 1), shard.now)));
    shard.advance(1_000); // a1 and a2 expire together; each draws its own wait
    assertTrue(q.messagesInBackoff() >= 1);
    // Group a stays locked until its head is back; b goes on.
    List<String> seen = new ArrayList<>(bodies(q.receive(spec(10, 60), shard.now)));
    while (!seen.contains("a1")) {
      shard.advance(100);
      seen.addAll(bodies(q.receive(spec(10, 60), shard.now)));
    }
    assertEquals("b1", seen.get(0));
    // Group a came back in its order, whatever the waits drawn.
    List<String> groupA = seen.stream().filter(s -> s.startsWith("a")).toList();
    assertEquals(List.of("a1", "a2", "a3").subList(0, groupA.size()), groupA);
  }

  @Test
  void aVisibilityChangeInBackoffHasNoEffectAndADeleteWithTheLastHandleDeletesIt() {
    QueueState q = queue("q", Map.of(), 30, 30, 9);
    q.send(message("m"), false, shard.now);
    ReceiveMessage.Message got = q.receive(spec(1, 1), shard.now).get(0);
    shard.advance(1_000);
    Message m = resident(q, got.messageId());
    assertEquals(MessageState.BACKOFF, m.state(), "seed 9 draws a wait above 0");
    long visibleAt = m.visibleAtMillis();
    q.changeVisibility(got.receiptHandle(), 0, shard.now);
    q.changeVisibility(got.receiptHandle(), 600, shard.now);
    assertEquals(MessageState.BACKOFF, m.state());
    assertEquals(visibleAt, m.visibleAtMillis());
    q.delete(got.receiptHandle(), shard.now);
    assertEquals(0, q.approximateNumberOfMessagesDelayed(shard.now));
    assertEquals(0, q.messagesInBackoff());
    shard.advance(60_000);
    assertEquals(List.of(), q.receive(spec(1, 1), shard.now));
  }

  @Test
  void onAFifoQueueADeleteInBackoffIsRefusedAsForAnExpiredHandle() {
    QueueState q = queue("q.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"), 30, 30, 9);
    q.send(new NewMessage("m", null, null, null, null, "g", "s", null), false, shard.now);
    ReceiveMessage.Message got = q.receive(spec(1, 1), shard.now).get(0);
    shard.advance(1_000);
    assertEquals(MessageState.BACKOFF, resident(q, got.messageId()).state());
    SqsException e = assertThrows(SqsException.class, () -> q.delete(got.receiptHandle(), shard.now));
    assertTrue(e.getMessage().contains("expired"), e.getMessage());
    assertEquals(1, q.messagesInBackoff());
  }

  @Test
  void noWaitFollowsAVisibilityOfZeroOrAChangeToZero() {
    QueueState q = queue("q", Map.of(), 30, 30, 9);
    q.send(message("m"), false, shard.now);
    q.receive(spec(1, 0), shard.now);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    ReceiveMessage.Message got = q.receive(spec(1, 30), shard.now).get(0);
    q.changeVisibility(got.receiptHandle(), 0, shard.now);
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    assertEquals(0, q.messagesInBackoff());
  }

  @Test
  void removingThePolicyLetsWaitsUnderWayEndAndStartsNoMore() {
    QueueState q = queue("q", Map.of(), 30, 30, 9);
    q.send(message("m"), false, shard.now);
    q.receive(spec(1, 1), shard.now);
    shard.advance(1_000);
    assertEquals(1, q.messagesInBackoff());
    q.setRedeliveryBackoff(null);
    assertEquals(1, q.messagesInBackoff());
    shard.advance(30_000);
    q.receive(spec(1, 1), shard.now);
    shard.advance(1_000);
    assertEquals(0, q.messagesInBackoff());
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
  }

  @Test
  void thePolicyIsNoAttribute() {
    QueueState q = queue("q", Map.of(), 5, 60, 1);
    assertTrue(q.attributeValues(List.of("All"), shard.now).keySet().stream()
        .noneMatch(k -> k.toLowerCase().contains("backoff")));
    assertThrows(SqsException.class, () -> q.setAttributes(Map.of("RedeliveryBackoff",
        "{\"baseSeconds\":1,\"maxSeconds\":2}"), shard.now));
    assertEquals(new RedeliveryBackoff(5, 60), q.metadata().redeliveryBackoff());
  }

  /**
   * Random receives, abandons, deletes and clock steps on a standard queue against a reference
   * that only counts: nothing is lost or doubled, every message in backoff counts as delayed, and
   * every wait stays under its ceiling.
   */
  @Test
  void randomTrafficLosesNothingAndEveryWaitStaysUnderItsCeiling() {
    SplittableRandom random = new SplittableRandom(2024);
    QueueState q = queue("q", Map.of(), 1, 16, 77);
    int live = 0;
    for (int step = 0; step < 3_000; step++) {
      int op = random.nextInt(10);
      if (op < 2) {
        q.send(message("m" + step), false, shard.now);
        live++;
      } else if (op < 5) {
        for (ReceiveMessage.Message m : q.receive(spec(1 + random.nextInt(3), 1 + random.nextInt(3)), shard.now)) {
          if (random.nextInt(4) == 0) {
            q.delete(m.receiptHandle(), shard.now);
            live--;
          }
        }
      } else {
        shard.advance(random.nextInt(2_000));
      }
      int[] backoff = new int[1];
      q.forEachResident(m -> {
        if (m.state() == MessageState.BACKOFF) {
          backoff[0]++;
          long ceiling = new RedeliveryBackoff(1, 16).ceilingMillis(m.receiveCount());
          assertTrue(m.visibleAtMillis() - shard.now <= ceiling, "wait past its ceiling");
        }
      });
      assertEquals(backoff[0], q.messagesInBackoff());
      assertEquals(live, q.approximateNumberOfMessages(shard.now) + q.approximateNumberOfMessagesNotVisible()
          + q.approximateNumberOfMessagesDelayed(shard.now), "step " + step);
    }
  }

  static List<String> bodies(List<ReceiveMessage.Message> messages) {
    return messages.stream().map(ReceiveMessage.Message::body).toList();
  }
}
