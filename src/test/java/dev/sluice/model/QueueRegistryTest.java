package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueRegistryTest {
  final ShardFixture shard = new ShardFixture();

  SqsException createFails(String name, Map<String, String> attrs) {
    return assertThrows(SqsException.class, () -> shard.create(name, attrs));
  }

  @Test
  void creatingAgainWithNoOrEqualAttributesReturnsTheSameQueue() {
    QueueState q = shard.create("q", Map.of("VisibilityTimeout", "40"));
    assertSame(q, shard.create("q", Map.of()));
    assertSame(q, shard.create("q", Map.of("VisibilityTimeout", "40")));
    q.setAttributes(Map.of("VisibilityTimeout", "50"), shard.now);
    assertSame(q, shard.create("q", Map.of("VisibilityTimeout", "50")));
  }

  @Test
  void creatingAgainWithDifferentAttributesFailsNamingTheAttribute() {
    shard.create("q", Map.of());
    SqsException e = createFails("q", Map.of("DelaySeconds", "1"));
    assertEquals(ErrorCode.QUEUE_NAME_EXISTS, e.code());
    assertEquals("A queue already exists with the same name and a different value for attribute DelaySeconds",
        e.getMessage());
  }

  @Test
  void aDeletedNameWaitsSixtySeconds() {
    shard.create("q", Map.of());
    shard.registry.delete("q", shard.now);
    assertEquals(ErrorCode.QUEUE_DELETED_RECENTLY, createFails("q", Map.of()).code());
    shard.advance(60_000);
    shard.create("q", Map.of());
  }

  @Test
  void aRegistryIsIdleOnceItsLastQueueWasDeletedAMinuteAgo() {
    assertTrue(shard.registry.idleAt(shard.now), "never held a queue");
    shard.create("q", Map.of());
    assertFalse(shard.registry.idleAt(shard.now));
    shard.registry.delete("q", shard.now);
    shard.advance(59_999);
    assertFalse(shard.registry.idleAt(shard.now), "a create must still wait: dropping it would forget that");
    shard.advance(1);
    assertTrue(shard.registry.idleAt(shard.now));
  }

  @Test
  void namesAreCheckedAndFifoSuffixAndFlagGoTogether() {
    for (String bad : List.of("", "has space", "x".repeat(81), "dot.name", ".fifo", "é")) {
      SqsException e = createFails(bad, Map.of());
      assertEquals(bad.isEmpty() ? ErrorCode.MISSING_PARAMETER : ErrorCode.INVALID_PARAMETER_VALUE, e.code());
    }
    shard.create("x".repeat(80), Map.of());
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, createFails("q.fifo", Map.of()).code());
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, createFails("q", Map.of("FifoQueue", "true")).code());
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_NAME, createFails("q", Map.of("FifoQueue", "false")).code());
  }

  @Test
  void unknownQueuesDoNotExist() {
    SqsException e = assertThrows(SqsException.class, () -> shard.registry.get("missing"));
    assertEquals(ErrorCode.QUEUE_DOES_NOT_EXIST, e.code());
    assertEquals("The specified queue does not exist.", e.getMessage());
  }

  @Test
  void tagsAtCreationAreApplied() {
    QueueState q = shard.registry.create("t", Map.of(), Map.of("team", "payments"), shard.now);
    assertEquals(Map.of("team", "payments"), q.metadata().tags());
  }

  @Test
  void theQueueLimitIsServerWideAndFollowsCreatesDeletesAndRestores() {
    QueueLimit limit = new QueueLimit(3);
    ShardFixture one = new ShardFixture(limit);
    ShardFixture two = new ShardFixture(limit);
    one.create("a", Map.of());
    two.create("b", Map.of());
    two.registry.restore("c", 7, one.now, one.now, Map.of(), Map.of()); // recovered: counts
    assertEquals(3, limit.queues());
    SqsException e = assertThrows(SqsException.class, () -> one.create("d", Map.of()));
    assertEquals(ErrorCode.OVER_LIMIT, e.code());
    assertEquals("You have reached the maximum number of queues (3) this server allows (engine.maxQueues).",
        e.getMessage());
    assertSame(one.registry.find("a"), one.create("a", Map.of()), "an existing queue is still answered");
    two.registry.delete("b", two.now);
    assertEquals(2, limit.queues());
    one.create("d", Map.of());
    assertEquals(3, limit.queues());
  }

  @Test
  void aRefusedQueueHoldsNoSlot() {
    QueueLimit limit = new QueueLimit(1);
    ShardFixture s = new ShardFixture(limit);
    assertThrows(SqsException.class, () -> s.create("bad", Map.of("DelaySeconds", "901")));
    assertThrows(SqsException.class, () -> s.registry.create("tags", Map.of(), Map.of("", "empty key"), s.now));
    assertEquals(0, limit.queues());
    s.create("fits", Map.of());
  }

  @Test
  void recoveryKeepsQueuesPastTheLimit() {
    QueueLimit limit = new QueueLimit(1);
    ShardFixture s = new ShardFixture(limit);
    s.registry.restore("a", 1, s.now, s.now, Map.of(), Map.of());
    s.registry.restore("b", 2, s.now, s.now, Map.of(), Map.of());
    assertEquals(2, limit.queues());
    assertEquals(ErrorCode.OVER_LIMIT, assertThrows(SqsException.class, () -> s.create("c", Map.of())).code());
    s.registry.delete("a", s.now);
    assertEquals(ErrorCode.OVER_LIMIT, assertThrows(SqsException.class, () -> s.create("c", Map.of())).code());
    s.registry.delete("b", s.now);
    s.create("c", Map.of());
  }
}
