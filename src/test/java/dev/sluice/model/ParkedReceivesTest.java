package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parked receives complete exactly once: by a message, by their deadline, or never if cancelled. */
class ParkedReceivesTest {
  final ShardFixture shard = new ShardFixture(1L << 30, 3, 5, 120_000);
  final QueueState q = shard.create("q", Map.of());

  ShardFixture.Recorder park(long waitMillis) {
    ShardFixture.Recorder r = new ShardFixture.Recorder(spec(10, 30));
    q.park(r.waiter, shard.now + waitMillis);
    return r;
  }

  @Test
  void aSendWakesTheOldestWaiterAtOnce() {
    ShardFixture.Recorder first = park(20_000);
    ShardFixture.Recorder second = park(20_000);
    q.send(message("hello"), false, shard.now);
    assertEquals(1, first.completions.size());
    assertEquals("hello", first.completions.get(0).get(0).body());
    assertTrue(second.completions.isEmpty());
    assertEquals(1, q.parkedCount());
    assertEquals(1, shard.parking.parkedInShard());
  }

  @Test
  void aWaiterAnswersEmptyAtItsDeadlineAndNeverAgain() {
    ShardFixture.Recorder r = park(20_000);
    shard.advance(19_999);
    assertTrue(r.completions.isEmpty());
    shard.advance(1);
    assertEquals(1, r.completions.size());
    assertTrue(r.completions.get(0).isEmpty());
    q.send(message("late"), false, shard.now);
    assertEquals(1, r.completions.size());
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    assertEquals(0, shard.parking.parkedInShard());
  }

  @Test
  void aCancelledWaiterNeverCompletesAndTakesNoMessage() {
    ShardFixture.Recorder r = park(20_000);
    q.cancel(r.waiter);
    q.send(message("kept"), false, shard.now);
    shard.advance(20_000);
    assertTrue(r.completions.isEmpty());
    assertEquals(1, q.approximateNumberOfMessages(shard.now));
    assertEquals(0, shard.index.size() - 1); // only the retention sweep remains scheduled
  }

  @Test
  void aWaiterWhoseCallerLeftIsSkippedEvenBeforeItsCancelArrives() {
    boolean[] gone = {false};
    ShardFixture.Recorder leaving = new ShardFixture.Recorder(spec(10, 30));
    Waiter abandoned = new Waiter(spec(10, 30), () -> gone[0], leaving.completions::add);
    q.park(abandoned, shard.now + 20_000);
    ShardFixture.Recorder staying = park(20_000);
    gone[0] = true;
    q.send(message("for the one still there"), false, shard.now);
    assertTrue(leaving.completions.isEmpty());
    assertEquals("for the one still there", staying.completions.get(0).get(0).body());
    assertEquals(0, shard.parking.parkedInShard());
  }

  @Test
  void retentionFreeingInflightRoomWakesAWaiter() {
    ShardFixture capped = new ShardFixture(1L << 30, 10, 10, 1);
    QueueState c = capped.create("capped", Map.of("MessageRetentionPeriod", "60"));
    c.send(message("old"), false, capped.now);
    c.receive(spec(1, 3600), capped.now);
    capped.advance(30_000);
    c.send(message("young"), false, capped.now);
    ShardFixture.Recorder r = new ShardFixture.Recorder(spec(1, 30));
    c.park(r.waiter, capped.now + 40_000);
    assertTrue(r.completions.isEmpty(), "the in-flight cap holds the young message back");
    capped.advance(30_000);
    assertEquals("young", r.completions.get(0).get(0).body());
  }

  @Test
  void delayAndVisibilityExpiriesWakeWaiters() {
    q.send(message("delayed", 5), false, shard.now);
    ShardFixture.Recorder r = park(20_000);
    shard.advance(5_000);
    assertEquals("delayed", r.completions.get(0).get(0).body());
    ShardFixture.Recorder again = park(60_000);
    shard.advance(30_000);
    assertEquals("2", again.completions.get(0).get(0).attributes().get("ApproximateReceiveCount"));
  }

  @Test
  void deletingTheQueueAnswersItsWaitersEmpty() {
    ShardFixture.Recorder r = park(20_000);
    shard.registry.delete("q", shard.now);
    assertEquals(1, r.completions.size());
    assertTrue(r.completions.get(0).isEmpty());
    assertEquals(0, shard.parking.parkedInShard());
  }

  @Test
  void parkingIsBoundedPerQueueAndPerShard() {
    park(1000);
    park(1000);
    park(1000);
    SqsException perQueue = assertThrows(SqsException.class, () -> park(1000));
    assertEquals(ErrorCode.REQUEST_THROTTLED, perQueue.code());
    QueueState other = shard.create("other", Map.of());
    other.park(new ShardFixture.Recorder(spec(1, 30)).waiter, shard.now + 1000);
    other.park(new ShardFixture.Recorder(spec(1, 30)).waiter, shard.now + 1000);
    assertThrows(SqsException.class,
        () -> other.park(new ShardFixture.Recorder(spec(1, 30)).waiter, shard.now + 1000));
    shard.advance(1000);
    assertEquals(0, shard.parking.parkedInShard());
  }
}
