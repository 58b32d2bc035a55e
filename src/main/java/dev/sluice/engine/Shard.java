package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.QueueKey;
import dev.sluice.api.RelaySend;
import dev.sluice.api.SqsException;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.triggers.LambdaException;
import dev.sluice.model.DueTimeIndex;
import dev.sluice.model.QueueRegistry;
import dev.sluice.model.QueueState;
import dev.sluice.model.ShardResources;
import dev.sluice.model.Message;
import dev.sluice.model.MessageStore;
import dev.sluice.topics.TopicRegistry;
import dev.sluice.triggers.TriggerRegistry;
import dev.sluice.topics.TopicState;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One shard's queues, a registry per account and region, and its due-time index. Owned by its
 * {@link ShardVerticle}'s event loop: every method runs there and nowhere else, which is why
 * nothing here is locked.
 */
public final class Shard {
  private static final System.Logger LOG = System.getLogger(Shard.class.getName());

  private final int index;
  private final ShardResources env;
  /** The queues of each account and region that has any on this shard (or had, for the 60-second wait). */
  private final Map<AccountRegion, QueueRegistry> registries = new HashMap<>();
  /** The topics of every account and region whose key routes here. */
  private final TopicRegistry topics;
  private final TopicWrites topicWrites;
  private final TriggerRegistry triggers;
  private final TriggerWrites triggerWrites;
  private final LongSupplier clock;
  private final Runnable afterEachCall;
  private final Consumer<Runnable> onLoop;
  private final Consumer<Runnable> afterIo;
  /** The durable store's side of this shard's changes; null in memory mode. */
  private final DurableChangeLog durable;
  private boolean busy;
  /** Set when the server stops: receives no longer wait. */
  private boolean stopping;
  /** Set while the server does not serve (durable mode, ownership not proven): receives do not wait. */
  private boolean paused;
  /**
   * Set when this deployment of the shard has handed over (its state is no longer the shard's):
   * every call from then on fails without running, so that nothing more is changed or written here.
   */
  private String retiredBecause;

  Shard(int index, ShardResources env, TopicRegistry topics, TriggerRegistry triggers, TopicWrites topicWrites,
      TriggerWrites triggerWrites, LongSupplier clock, Runnable afterEachCall, Consumer<Runnable> onLoop,
      Consumer<Runnable> afterIo, DurableChangeLog durable) {
    this.index = index;
    this.env = env;
    this.topics = topics;
    this.topicWrites = topicWrites;
    this.triggers = triggers;
    this.triggerWrites = triggerWrites;
    this.clock = clock;
    this.afterEachCall = afterEachCall;
    this.onLoop = onLoop;
    this.afterIo = afterIo;
    this.durable = durable;
  }

  /**
   * Refuses a send with the retryable RequestThrottled while PostgreSQL is too far behind (durable
   * mode, pg.maxWriterBacklogBytes); nothing in memory mode, where the memory budget throttles.
   */
  void admitSends() {
    if (durable != null) {
      durable.admitSends();
    }
  }

  /**
   * Hands this call's changes to the durable store now. The future completes once they have
   * committed, with the messages stored pending by them receivable by then; it fails with the
   * retryable ServiceUnavailable past pg.sendTimeoutMillis. At once in memory mode.
   */
  Future<Void> commitChanges() {
    return durable == null ? Future.succeededFuture() : durable.flushWithin(this::release);
  }

  /** {@link #commitChanges}, waiting for everything this shard submitted before too (the outbox relay). */
  Future<Void> commitChangesAfterEarlier() {
    return durable == null ? Future.succeededFuture() : durable.flushWithinAfterEarlier(this::release);
  }

  /** Cluster mode: this call's changes are written only while {@code shard} is still at {@code epoch} too. */
  void alsoFencedBy(int shard, long epoch) {
    durable.alsoFencedBy(shard, epoch);
  }

  /**
   * Whether a FIFO queue's receives are answered only once committed: on a cluster node under
   * durability commit, where a shard may move to another node between a receive and its write.
   */
  boolean receivesAnsweredAfterCommit() {
    return durable != null && durable.holdsSendsUntilCommitted() && durable.clustered();
  }

  /** Whether a change (a send, a queue change) is answered only once committed (durability commit). */
  boolean answersAfterCommit() {
    return durable != null && durable.holdsSendsUntilCommitted();
  }

  private void release(List<MessageStore> stores, List<Message> messages, boolean committed) {
    run((s, reply) -> {
      for (int i = 0; i < messages.size(); i++) {
        if (committed) {
          stores.get(i).commitPending(messages.get(i), now());
        } else {
          stores.get(i).dropPending(messages.get(i));
        }
      }
      reply.succeed(null);
    }, (result, failure) -> {});
  }

  public int index() {
    return index;
  }

  public long now() {
    return clock.getAsLong();
  }

  /** The topics on this shard. */
  public TopicRegistry topics() {
    return topics;
  }

  /** Where this shard's topic changes are kept. */
  /** The triggers of this shard's queues. */
  public TriggerRegistry triggers() {
    return triggers;
  }

  TriggerWrites triggerWrites() {
    return triggerWrites;
  }

  TopicWrites topicWrites() {
    return topicWrites;
  }

  /** The queues of {@code place} on this shard, a registry made for it when it has none yet. */
  public QueueRegistry registry(AccountRegion place) {
    return registries.computeIfAbsent(place, p -> new QueueRegistry(env, p));
  }

  /**
   * Drops the registries of places that hold nothing any more (their last queue deleted over a
   * minute ago): one account and region each, they would otherwise pile up, one for every place a
   * client ever created a queue in.
   */
  void dropIdleRegistries() {
    long now = now();
    registries.values().removeIf(r -> r.idleAt(now));
  }

  /** The queues of {@code place} on this shard, or null when it never had one here (nothing is made). */
  public QueueRegistry registryIfAny(AccountRegion place) {
    return registries.get(place);
  }

  /**
   * The queue a client's request names, once {@code permit} lets it touch it (else AccessDenied),
   * or QueueDoesNotExist.
   */
  QueueState queue(QueueKey key, Permit permit) {
    QueueState q = find(key);
    permit.check(key, q);
    if (q == null) {
      throw SqsException.queueDoesNotExist();
    }
    return q;
  }

  /** The queue, or QueueDoesNotExist: for the server's own work; a client's request goes through {@link #queue(QueueKey, Permit)}. */
  public QueueState queue(QueueKey key) {
    QueueState q = find(key);
    if (q == null) {
      throw SqsException.queueDoesNotExist();
    }
    return q;
  }

  /** The queue, or null. */
  public QueueState find(QueueKey key) {
    QueueRegistry r = registries.get(key.accountRegion());
    return r == null ? null : r.find(key.name());
  }

  /** Every queue of this shard, whatever its account and region. */
  private List<QueueState> allQueues() {
    List<QueueState> all = new ArrayList<>();
    for (QueueRegistry r : registries.values()) {
      all.addAll(r.all());
    }
    return all;
  }

  /** The receipts of outbox {@code source}'s rows that this shard's queues hold (see RelayActions#heldHere). */
  List<RelaySend.Held> relayReceiptsOf(String source) {
    List<RelaySend.Held> out = new ArrayList<>();
    for (QueueState q : allQueues()) {
      List<Long> rows = q.relayReceipts().heldRows(source);
      if (!rows.isEmpty()) {
        out.add(new RelaySend.Held(q.metadata().key(), rows));
      }
    }
    return out;
  }

  /**
   * Every queue of this shard holding receipts of {@code source} forgets those of {@code rowIds},
   * unless its relay's lease was taken over (see RelayActions#forgetHere).
   */
  Void forgetRelayReceipts(String source, long epoch, List<Long> rowIds) {
    for (QueueState q : allQueues()) {
      if (q.relayReceipts().holds(source)) {
        try {
          q.relayReceipts().admitEpoch(source, epoch);
          q.relayReceipts().forget(source, rowIds);
        } catch (SqsException fenced) {
          // a newer relay holds the lease: its receipts are its to forget
        }
      }
    }
    return null;
  }

  public DueTimeIndex dueTimes() {
    return env.index();
  }

  public ShardResources resources() {
    return env;
  }

  /** This shard's queues' counts, for the metrics: all of its queues in this one turn. */
  EngineSample sample() {
    long now = now();
    List<QueueSample> out = new ArrayList<>();
    long duplicateRows = 0;
    for (QueueState q : allQueues()) {
      duplicateRows += q.backlogDuplicateRows();
      out.add(QueueSample.of(q, now));
    }
    return new EngineSample(out, env.parking().parkedInShard(), duplicateRows, sampleTopics(), env.slab().liveBytes(),
        env.slab().allocatedBytes());
  }

  /**
   * This shard's topics' counts, for the console: topics only, so the console's reading never takes
   * every queue of the shard in one turn as {@link #sample} does.
   */
  List<TopicSample> sampleTopics() {
    List<TopicSample> out = new ArrayList<>();
    for (TopicState t : topics.all()) {
      long[] c = t.counts();
      out.add(new TopicSample(t.key(), c[0], c[1], c[2], c[3]));
    }
    return out;
  }

  /**
   * Every queue's counts for the console, at most {@code perTurn} queues read per event-loop turn;
   * answered once the last slice is read. Called inside a shard call. See {@link SlicedQueueSample}.
   */
  void sampleQueues(int perTurn, Completable<List<QueueSample>> reply) {
    new SlicedQueueSample(allQueues(), perTurn).run(this, reply);
  }

  /** Answers every parked receive empty; receives stop waiting from now on. */
  Void stopParking() {
    stopping = true;
    for (QueueState q : allQueues()) {
      q.answerParkedEmpty();
    }
    return null;
  }

  /**
   * While the server does not serve: every parked receive answers now with nothing, and receives do
   * not wait until {@code paused} is false again.
   */
  Void pauseParking(boolean paused) {
    this.paused = paused;
    if (paused) {
      for (QueueState q : allQueues()) {
        q.answerParkedEmpty();
      }
    }
    return null;
  }

  /**
   * This deployment hands its shard over: parked receives answer now with nothing, calls fail from
   * now on, and what its calls changed goes to the writer; answers once all of that is written (or
   * refused). Calls already waiting for their commit still answer.
   */
  Future<Void> retire(String because) {
    for (QueueState q : allQueues()) {
      q.answerParkedEmpty();
    }
    paused = true;
    retiredBecause = because;
    if (durable == null) {
      return Future.succeededFuture();
    }
    durable.flush(this::release);
    return durable.settled();
  }

  /** True once the server is stopping, or while it does not serve: a receive that finds nothing answers at once. */
  boolean stopping() {
    return stopping || paused;
  }

  /** Runs a task later on this shard's event loop, from any thread. */
  public void later(Runnable task) {
    onLoop.accept(task);
  }

  /**
   * Runs a task on this shard's event loop once the loop has read its sockets again. Not
   * {@link #later}: Netty runs queued tasks back to back, so a chain of them keeps the loop's own
   * I/O waiting until the last has run (measured, design/console.md §2.4); a timer comes after it.
   */
  void afterIo(Runnable task) {
    afterIo.accept(task);
  }

  /** Runs a call; an exception it throws becomes its failed answer, and the timer is re-armed. */
  <R> void run(ShardCall<R> call, Completable<R> reply) {
    if (retiredBecause != null) {
      reply.fail(GatedDispatcher.refusal(retiredBecause));
      return;
    }
    boolean outermost = !busy;
    busy = true;
    try {
      call.run(this, reply);
    } catch (SqsException | SnsException | LambdaException e) {
      reply.fail(e);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "Shard " + index + " failed a call", e);
      reply.fail(e);
    } finally {
      busy = !outermost;
      if (outermost && durable != null) {
        durable.flush(this::release); // written behind: nobody waits for it
      }
      afterEachCall.run();
    }
  }

  /** Items fired per event-loop turn; more wait for the next turn. */
  static final int FIRE_BATCH = 10_000;

  /** Fires what is due now (the shard timer's work), as a shard call; true if more is due. */
  boolean fireDue() {
    boolean[] more = {false};
    run((s, reply) -> {
      more[0] = env.index().fireDue(now(), FIRE_BATCH) == FIRE_BATCH;
      reply.succeed(null);
    }, (result, failure) -> {});
    return more[0];
  }

  /** True while a call of this shard is on the stack. */
  boolean busy() {
    return busy;
  }
}
