package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.QueueKey;
import dev.sluice.model.AttributeSelection;
import dev.sluice.model.BacklogStore;
import dev.sluice.model.ChangeLog;
import dev.sluice.model.ContentSlab;
import dev.sluice.model.DeadLetterRoute;
import dev.sluice.model.DueTimeIndex;
import dev.sluice.model.HeadWindow;
import dev.sluice.model.MemoryBudget;
import dev.sluice.model.Message;
import dev.sluice.model.NewMessage;
import dev.sluice.model.ParkingLimits;
import dev.sluice.model.QueueDirectory;
import dev.sluice.model.QueueLimit;
import dev.sluice.model.QueueRegistry;
import dev.sluice.model.QueueState;
import dev.sluice.model.ReceiptHandleCodec;
import dev.sluice.model.ReceiveSpec;
import dev.sluice.model.ShardResources;
import dev.sluice.topics.TopicRegistry;
import dev.sluice.triggers.TriggerRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A shard's samples of its queues (design/console.md §2.4), on a shard whose event loop is a queue
 * of tasks this test runs one turn at a time, with a manual clock; no Vert.x instance. The console's
 * sliced reading reads at most {@code perTurn} queues per turn, each later slice after the loop's
 * I/O ({@link Shard#afterIo}, not a queued task), skips queues deleted between slices,
 * fails once the shard is handed over, and reads what the metrics' one-turn sample reads: counts,
 * oldest age, generation, dead-letter target and the arrived, received and deleted totals.
 */
class ShardSampleTest {
  static final AccountRegion PLACE = new AccountRegion("000000000000", "us-east-1");

  long now = 1_700_000_000_000L;
  /** The shard's event loop after its I/O: each task is one later turn. */
  final ArrayDeque<Runnable> loop = new ArrayDeque<>();
  /** Tasks queued to run back to back with the loop's other tasks: a slice must never go there. */
  final ArrayDeque<Runnable> queuedTasks = new ArrayDeque<>();
  final Shard shard = new Shard(0, resources(), new TopicRegistry(new QueueLimit(100), new MemoryBudget(1L << 30)),
      new TriggerRegistry(new QueueLimit(100)), TopicWrites.NONE, TriggerWrites.NONE, () -> now, () -> {},
      queuedTasks::add, loop::add, null);
  final QueueRegistry queues = shard.registry(PLACE);

  private static ShardResources resources() {
    DeadLetterRoute everyTargetExists = new DeadLetterRoute() {
      @Override
      public boolean exists(String deadLetterTargetArn) {
        return true;
      }

      @Override
      public void moveTo(String deadLetterTargetArn, QueueState source, Message m, long nowMillis) {
        throw new AssertionError("no message is received past its maxReceiveCount here");
      }
    };
    QueueDirectory directory = new QueueDirectory() {
      @Override
      public void created(QueueKey queue) {}

      @Override
      public void deleted(QueueKey queue) {}
    };
    return new ShardResources(new DueTimeIndex(), new ReceiptHandleCodec(new byte[32]), new ParkingLimits(100, 1000),
        new MemoryBudget(1L << 30), new QueueLimit(100_000), 120_000, everyTargetExists, directory, ChangeLog.NONE,
        ShardResources.firstKeyOfRun(0), BacklogStore.NONE, HeadWindow.UNBOUNDED, new ContentSlab(4096));
  }

  /** Starts a sliced reading as a shard call, as the dispatcher runs one; its first slice runs now. */
  Future<List<QueueSample>> sampleQueues(int perTurn) {
    Promise<List<QueueSample>> reply = Promise.promise();
    shard.run((s, r) -> s.sampleQueues(perTurn, r), reply);
    return reply.future();
  }

  /** Runs the shard's queued turns until none is left; answers how many ran. */
  int runTurns() {
    int turns = 0;
    while (!loop.isEmpty()) {
      loop.poll().run();
      turns++;
    }
    return turns;
  }

  void create(int count) {
    for (int i = 0; i < count; i++) {
      queues.create("q" + i, Map.of(), Map.of(), now);
    }
  }

  static NewMessage message(String body) {
    return new NewMessage(body, null, null, null, null, null, "sender", null);
  }

  @Test
  void atMostPerTurnQueuesAreReadInOneTurn() {
    create(2_500);
    Future<List<QueueSample>> reading = sampleQueues(1_000);
    assertFalse(reading.isComplete());
    assertEquals(1, loop.size(), "the next slice waits for a turn after the loop's I/O");
    assertEquals(0, queuedTasks.size());
    // Between turns every queue gets a message: a queue read in an earlier slice does not show it.
    for (int slice = 0; slice < 2; slice++) {
      for (QueueState q : queues.all()) {
        q.send(message("between turns"), false, now);
      }
      loop.poll().run();
    }
    assertEquals(0, runTurns());
    assertTrue(reading.succeeded());
    Map<Long, Long> queuesByArrivals = new TreeMap<>(reading.result().stream()
        .collect(Collectors.groupingBy(QueueSample::arrived, Collectors.counting())));
    assertEquals(Map.of(0L, 1_000L, 1L, 1_000L, 2L, 500L), queuesByArrivals, "queues read per turn, by arrivals seen");
    assertEquals(2_500, reading.result().stream().map(QueueSample::queue).distinct().count());
  }

  @Test
  void aShardWithNoMoreQueuesThanPerTurnAnswersInOneTurn() {
    assertEquals(List.of(), sampleQueues(1_000).result());
    create(1_000);
    Future<List<QueueSample>> reading = sampleQueues(1_000);
    assertTrue(reading.succeeded());
    assertEquals(1_000, reading.result().size());
    assertTrue(loop.isEmpty());
  }

  @Test
  void queuesDeletedBetweenSlicesAreSkippedAndNewOnesWaitForTheNextReading() {
    create(2_500);
    Future<List<QueueSample>> reading = sampleQueues(1_000);
    for (int i = 0; i < 2_500; i++) {
      queues.delete("q" + i, now);
    }
    now += 61_000; // a name is free again a minute after its queue was deleted
    queues.create("q1", Map.of(), Map.of(), now);
    queues.create("new", Map.of(), Map.of(), now);
    assertEquals(2, runTurns());
    assertEquals(1_000, reading.result().size(), "only the first slice, read before the deletes");
    Set<Long> generations = new HashSet<>();
    reading.result().forEach(s -> generations.add(s.generation()));
    assertFalse(generations.contains(queues.find("q1").metadata().generation()));
    assertTrue(reading.result().stream().noneMatch(s -> s.queue().name().equals("new")));
  }

  @Test
  void aShardHandedOverBetweenSlicesHasNothingToSay() {
    create(1_500);
    Future<List<QueueSample>> reading = sampleQueues(1_000);
    shard.retire("shard 0 was handed over");
    runTurns();
    assertTrue(reading.failed());
    assertTrue(reading.cause().getMessage().contains("handed over"), reading.cause().getMessage());
  }

  @Test
  void aSampleReadsCountsAgeGenerationDeadLetterTargetAndTotals() {
    String dlqArn = queues.create("dlq", Map.of(), Map.of(), now).metadata().arn();
    QueueState src = queues.create("src", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"5\"}"), Map.of(), now);
    long sentAt = now;
    for (int i = 0; i < 4; i++) {
      src.send(message("m" + i), false, now);
    }
    src.send(new NewMessage("later", 60, null, null, null, null, "sender", null), false, now);
    now += 2_000;
    var received = src.receive(new ReceiveSpec(2, 30, AttributeSelection.of(List.of("All"), null, null)), now);
    src.delete(received.get(0).receiptHandle(), now);

    Future<List<QueueSample>> sliced = sampleQueues(1);
    assertEquals(1, runTurns(), "two queues, one per turn");
    Map<String, QueueSample> byName = sliced.result().stream()
        .collect(Collectors.toMap(s -> s.queue().name(), s -> s));
    QueueSample s = byName.get("src");
    assertEquals(new QueueSample(src.metadata().key(), src.metadata().generation(), dlqArn, 2, 1, 1, now - sentAt, 5, 2,
        1), s);
    QueueSample dlq = byName.get("dlq");
    assertNull(dlq.deadLetterTargetArn());
    assertEquals("0/0/0/0/0/0/0", dlq.visible() + "/" + dlq.inflight() + "/" + dlq.delayed() + "/"
        + dlq.oldestAgeMillis() + "/" + dlq.arrived() + "/" + dlq.received() + "/" + dlq.deleted());
    // The metrics' one-turn sample reads the same.
    assertEquals(Set.copyOf(sliced.result()), Set.copyOf(shard.sample().queues()));
  }

  @Test
  void perTurnMustBeAtLeastOne() {
    assertThrows(IllegalArgumentException.class, () -> new SlicedQueueSample(List.of(), 0));
  }
}
