package dev.sluice.model;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.QueueKey;
import dev.sluice.api.ReceiveMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A shard's worth of model state driven by a manual clock in milliseconds: advancing the clock
 * fires whatever the due-time index holds, as the shard's timer would.
 */
final class ShardFixture {
  /** Small chunks, so that a test's few messages fill, free and compact several (design/tails.md §2.3). */
  static final int CHUNK_BYTES = 4096;
  final DueTimeIndex index = new DueTimeIndex();
  final ContentSlab slab = new ContentSlab(CHUNK_BYTES);
  final MemoryBudget budget;
  final QueueLimit queueLimit;
  final ParkingLimits parking;
  final ShardResources env;
  final QueueRegistry registry;
  long now = 1_700_000_000_000L;

  ShardFixture() {
    this(1L << 30, 100, 1000, 120_000);
  }

  ShardFixture(long budgetBytes, int parkedPerQueue, int parkedPerShard, int maxInflight) {
    this(budgetBytes, parkedPerQueue, parkedPerShard, maxInflight, ChangeLog.NONE);
  }

  ShardFixture(ChangeLog changes) {
    this(1L << 30, 100, 1000, 120_000, changes);
  }

  ShardFixture(long budgetBytes, int parkedPerQueue, int parkedPerShard, int maxInflight, ChangeLog changes) {
    this(budgetBytes, parkedPerQueue, parkedPerShard, maxInflight, changes, new QueueLimit(1_000_000));
  }

  /** One shard of a server whose other shards share {@code queueLimit}. */
  ShardFixture(QueueLimit queueLimit) {
    this(1L << 30, 100, 1000, 120_000, ChangeLog.NONE, queueLimit);
  }

  ShardFixture(long budgetBytes, int parkedPerQueue, int parkedPerShard, int maxInflight, ChangeLog changes,
      QueueLimit queueLimit) {
    this(budgetBytes, parkedPerQueue, parkedPerShard, maxInflight, changes, queueLimit, BacklogStore.NONE,
        HeadWindow.UNBOUNDED, 0);
  }

  /**
   * Paged mode: queues keep at most {@code window} never-received messages in memory, the rest in
   * {@code store}, which is this shard's change log too and reads the fixture's clock.
   */
  static ShardFixture paged(HeadWindow window, FakeBacklogStore store) {
    return paged(1L << 30, 120_000, window, store);
  }

  static ShardFixture paged(long budgetBytes, int maxInflight, HeadWindow window, FakeBacklogStore store) {
    return paged(budgetBytes, maxInflight, window, store, 0);
  }

  /** Paged, in run {@code run}: message keys start past those of every earlier run (restart tests). */
  static ShardFixture paged(long budgetBytes, int maxInflight, HeadWindow window, FakeBacklogStore store, long run) {
    ShardFixture shard = new ShardFixture(budgetBytes, 100, 1000, maxInflight, store, new QueueLimit(1_000_000), store,
        window, run);
    store.clock(() -> shard.now);
    return shard;
  }

  /**
   * "memory", or "paged": a window of 3 with a store that commits and reads at once, where a
   * client must see what it sees in memory mode.
   */
  static ShardFixture of(String mode) {
    return switch (mode) {
      case "memory" -> new ShardFixture();
      case "paged" -> paged(window(3), FakeBacklogStore.eager());
      default -> throw new IllegalArgumentException(mode);
    };
  }

  /** No queue of this shard read a row it held already, nor found its counts wrong. */
  void assertBacklogsSound() {
    for (QueueState q : created) {
      org.junit.jupiter.api.Assertions.assertEquals(0, q.backlog().operations().duplicateRows(), q.name() + ": duplicate rows");
      org.junit.jupiter.api.Assertions.assertEquals(0, q.backlog().operations().countResyncs(), q.name() + ": count resyncs");
    }
  }

  /** A window of {@code messages} with 1 ms buckets, so that counts are exact at every millisecond. */
  static HeadWindow window(int messages) {
    return new HeadWindow(messages, 1 << 20, 1000, 30_000, 1);
  }

  private ShardFixture(long budgetBytes, int parkedPerQueue, int parkedPerShard, int maxInflight, ChangeLog changes,
      QueueLimit queueLimit, BacklogStore backlog, HeadWindow window, long run) {
    this.queueLimit = queueLimit;
    budget = new MemoryBudget(budgetBytes);
    parking = new ParkingLimits(parkedPerQueue, parkedPerShard);
    env = new ShardResources(index, new ReceiptHandleCodec(new byte[32]), parking, budget,
        queueLimit, maxInflight, new DeadLetterRoute() {
          @Override
          public boolean exists(String targetArn) {
            return registry.find(nameOf(targetArn)) != null;
          }

          @Override
          public void moveTo(String targetArn, QueueState source, Message m, long nowMillis) {
            moveDeadLetter(targetArn, source, m, nowMillis);
          }
        }, new QueueDirectory() {
          @Override
          public void created(QueueKey queue) {}

          @Override
          public void deleted(QueueKey queue) {}
        }, changes, ShardResources.firstKeyOfRun(run), backlog, window, slab);
    registry = new QueueRegistry(env, PLACE);
  }

  /**
   * Dead letters move at once within this one shard; a target deleted on the way gives the message
   * back in a later turn, as the shards do.
   */
  private void moveDeadLetter(String targetArn, QueueState source, Message m, long nowMillis) {
    QueueState target = registry.find(nameOf(targetArn));
    if (target == null) {
      index.schedule(new Timed() {
        @Override
        public void onDue(long now) {
          source.moves().takeBackOrRelease(m, now);
        }
      }, nowMillis);
    } else {
      target.moves().adoptDeadLetter(m, source.metadata().arn(), nowMillis);
    }
  }

  /** The one account and region of this fixture's queues. */
  static final AccountRegion PLACE = new AccountRegion("000000000000", "us-east-1");

  /** The name of this fixture's queue an ARN names, or null. */
  static String nameOf(String arn) {
    QueueKey key = QueueArns.keyOf(arn);
    return key != null && key.isIn(PLACE) ? key.name() : null;
  }

  /** A move task's batches arrive at once within this one shard. */
  final MessageMover mover = this::moveBatch;

  private void moveBatch(MessageMoveTask task, List<Message> batch, long nowMillis) {
    List<Message> undelivered = new ArrayList<>();
    int arrived = 0;
    for (Message m : batch) {
      String arn = task.destinationArn() != null ? task.destinationArn() : m.deadLetterSourceArn();
      QueueState q = arn == null ? null : registry.find(nameOf(arn));
      if (q == null) {
        undelivered.add(m);
      } else {
        q.moves().adoptRedriven(m, nowMillis);
        arrived++;
      }
    }
    task.delivered(arrived, undelivered, undelivered.isEmpty() ? null : "AWS.SimpleQueueService.NonExistentQueue",
        nowMillis);
  }

  private final List<QueueState> created = new ArrayList<>();

  QueueState create(String name, Map<String, String> attributes) {
    QueueState q = registry.create(name, attributes, Map.of(), now);
    created.add(q);
    return q;
  }

  /** The slab holds exactly the contents of the messages this fixture's queues hold (§2.6). */
  void assertSlabSound(String where) {
    SlabInvariants.check(slab, created, where);
  }

  /** Deletes every queue this fixture created that is still there; then the slab must be empty. */
  void deleteAllQueuesAndAssertSlabEmpty(String where) {
    for (QueueState q : created) {
      if (registry.find(q.name()) != null) {
        registry.delete(q.name(), now);
      }
    }
    SlabInvariants.checkEmpty(slab, where);
  }

  void advance(long millis) {
    long target = now + millis;
    while (index.nextDueAtMillis() <= target) {
      now = Math.max(now, index.nextDueAtMillis());
      index.fireDue(now, Integer.MAX_VALUE);
    }
    now = target;
  }

  static NewMessage message(String body) {
    return new NewMessage(body, null, null, null, null, null, "sender", null);
  }

  static NewMessage message(String body, Integer delaySeconds) {
    return new NewMessage(body, delaySeconds, null, null, null, null, "sender", null);
  }

  static NewMessage message(String body, Map<String, MessageAttributeValue> attributes) {
    return new NewMessage(body, null, attributes, null, null, null, "sender", null);
  }

  static ReceiveSpec spec(int max, int visibilitySeconds) {
    return new ReceiveSpec(max, visibilitySeconds, AttributeSelection.of(List.of("All"), null, List.of("All")));
  }

  /** A waiter that records every completion, to prove it completes exactly once. */
  static final class Recorder {
    final List<List<ReceiveMessage.Message>> completions = new ArrayList<>();
    final Waiter waiter;

    Recorder(ReceiveSpec spec) {
      waiter = new Waiter(spec, () -> false, completions::add);
    }
  }
}
