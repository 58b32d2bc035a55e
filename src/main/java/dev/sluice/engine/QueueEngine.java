package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.Caller;
import dev.sluice.api.QueueKey;
import dev.sluice.api.ShardKey;
import dev.sluice.model.MemoryBudget;
import dev.sluice.outbound.OutboundHttp;
import dev.sluice.persistence.DurableStore;
import dev.sluice.persistence.ShardFence;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The facade every protocol calls: each action is handed to the shard that owns its queue (see
 * {@link ShardDispatcher}) and answered on the caller's event loop. Every action made for a client
 * passes the serving gate ({@link GatedDispatcher}); what the server does for itself does not.
 * Holds no queue state itself; {@link EngineStartup} starts it.
 */
public final class QueueEngine {
  private final QueueActions queues;
  private final QueueActions startupQueues;
  private final QueueListing listing;
  private final SendActions sends;
  private final ReceiveActions receives;
  private final ReceiptActions receipts;
  private final RedriveActions redrive;
  private final PeekActions peeks;
  private final RelayActions relays;
  private final RedeliveryBackoffActions redeliveryBackoffs;
  private final RedeliveryBackoffActions startupRedeliveryBackoffs;
  private final TopicEngine sns;
  private final TriggerActions triggers;
  private final TriggerActions startupTriggers;
  private final ShardDispatcher dispatcher;
  private final MemoryBudget budget;
  private final QueueAccess access;
  private final ShardSlots slots;
  private final ShardDeployments deployments;
  private final DurableStore durable;
  private final ShardRouter router;
  private final CrossShard crossShard;
  /** Cluster mode: receives forwarded from here, ended when the server stops. */
  private final ForwardedWaits forwardedWaits = new ForwardedWaits();
  /** The shards of other nodes: {@link RemoteShards#NONE} until a cluster node connects them. */
  private volatile RemoteShards remote = RemoteShards.NONE;

  QueueEngine(ShardDispatcher dispatcher, ServingGate gate, ShardRouter router, CrossShard crossShard,
      MemoryBudget budget, QueueAccess access, ShardSlots slots, ShardDeployments deployments, DurableStore durable,
      TopicSigner signer, Vertx vertx, OutboundHttp outbound) {
    this.dispatcher = dispatcher;
    this.access = access;
    this.budget = budget;
    this.slots = slots;
    this.deployments = deployments;
    this.durable = durable;
    this.router = router;
    this.crossShard = crossShard;
    ShardDispatcher clients = gate == ServingGate.OPEN ? dispatcher : new GatedDispatcher(dispatcher, gate);
    this.listing = new QueueListing(clients, access, slots, () -> remote);
    RedriveChecks checks = new RedriveChecks(clients, router, this::checkedWhereHeld, listing::deadLetterSources);
    OwningShard owningShard = new OwningShard(clients, router, access);
    this.queues = new QueueActions(owningShard, checks);
    this.startupQueues = gate == ServingGate.OPEN ? queues
        : new QueueActions(new OwningShard(dispatcher, router, access),
            new RedriveChecks(dispatcher, router, this::checkedWhereHeld, listing::deadLetterSources));
    this.sends = new SendActions(owningShard);
    this.receives = new ReceiveActions(clients, dispatcher, router, access);
    this.receipts = new ReceiptActions(owningShard);
    this.peeks = new PeekActions(owningShard);
    this.relays = new RelayActions(owningShard, this::onDeployedShards);
    this.redeliveryBackoffs = new RedeliveryBackoffActions(owningShard);
    this.startupRedeliveryBackoffs = gate == ServingGate.OPEN ? redeliveryBackoffs
        : new RedeliveryBackoffActions(new OwningShard(dispatcher, router, access));
    this.redrive = new RedriveActions(clients, router, checks, crossShard, access, this::checkedWhereHeld);
    this.sns = new TopicEngine(clients, gate == ServingGate.OPEN ? clients : dispatcher, router,
        new TopicAccess(access), () -> remote != RemoteShards.NONE, signer, vertx, outbound);
    this.triggers = new TriggerActions(clients, dispatcher, router, access, () -> remote != RemoteShards.NONE);
    this.startupTriggers = triggers.startup();
  }

  /** Cluster mode: calls for the shards this node does not hold go to {@code remote}. Set once, before serving. */
  public void connect(RemoteShards remote) {
    this.remote = remote;
    crossShard.clustered(this);
  }

  /** Cluster mode: every queue of the cluster, as just read from PostgreSQL (for dead-letter targets). */
  public void clusterQueues(Set<QueueKey> all) {
    crossShard.knownElsewhere(all);
  }

  /**
   * Runs a client's request: here, when its queue's shard is deployed here, it names no one queue,
   * or there is no cluster; else on the node holding the shard ({@link RemoteShards}). The one way
   * the protocols and push reach the engine.
   */
  public <Q, R> Future<R> run(EngineAction<Q, R> action, Caller caller, Q request, CallerGone gone) {
    RemoteShards others = remote;
    if (others == RemoteShards.NONE || action.sns()) {
      // An SNS action on a cluster node is refused where it arrives (TopicShards), never forwarded.
      return action.runLocally(this, caller, request, gone);
    }
    ShardKey key = action.keyOf(caller, request);
    if (key == null || slots.closedBecause(router.shardOf(key)) == null) {
      return action.runLocally(this, caller, request, gone);
    }
    // Not served here now (another node's, or loading, or being handed over): the forwarding waits
    // for whichever node serves it, for up to cluster.retryMillis.
    int shard = router.shardOf(key);
    if (action == EngineActions.RECEIVE_MESSAGE) {
      @SuppressWarnings("unchecked")
      R empty = (R) ReceiveActions.EMPTY;
      return forwardedWaits.watch(() -> others.forward(action, shard, caller, request, gone), empty, gone);
    }
    return others.forward(action, shard, caller, request, gone);
  }

  /**
   * Runs a request another node forwarded: here if its queue's shard is deployed here, else it
   * fails with {@link ShardNotHere}, having run nothing, so that the entry node may route it again.
   */
  public <Q, R> Future<R> runHere(EngineAction<Q, R> action, Caller caller, Q request, CallerGone gone) {
    ShardKey key = action.keyOf(caller, request);
    if (key != null && slots.closedBecause(router.shardOf(key)) != null) {
      return Future.failedFuture(new ShardNotHere(router.shardOf(key)));
    }
    return action.runLocally(this, caller, request, gone);
  }

  /**
   * Runs work the server sends itself for the node holding a queue's shard: here when it is
   * deployed here, else on that node ({@link RemoteShards#call}).
   */
  <T extends Record> Future<T> onQueueShard(PortableCall<T> call) {
    int shard = router.shardOf(call.queue());
    RemoteShards others = remote;
    if (others == RemoteShards.NONE || slots.verticle(shard) != null) {
      return call.run(this);
    }
    return others.call(shard, call);
  }

  /**
   * Runs work another node sent for a shard it believes this one holds: here if it is deployed
   * here, else it fails with {@link ShardNotHere}, having run nothing.
   */
  public <T extends Record> Future<T> runPortable(PortableCall<T> call) {
    int shard = router.shardOf(call.queue());
    if (slots.verticle(shard) == null) {
      return Future.failedFuture(new ShardNotHere(shard));
    }
    return call.run(this);
  }

  /** Runs {@code call} on the shard of {@code queue}, deployed here, as the server's own (not gated). */
  <R> Future<R> onShard(QueueKey queue, ShardCall<R> call) {
    return dispatcher.call(router.shardOf(queue), call);
  }

  /** The fence of the writes of {@code shard}'s deployment here, or null (none, or not a cluster node's). */
  ShardFence fenceOf(int shard) {
    ShardVerticle v = slots.verticle(shard);
    return v == null ? null : v.tenure().submissions();
  }

  /**
   * Cluster mode: a redrive target, or a queue a move task sends to, checked where it is held; null
   * for a single-node server.
   */
  private <T extends Record> Future<T> checkedWhereHeld(PortableCall<T> check) {
    return remote == RemoteShards.NONE ? null : onQueueShard(check);
  }

  /** {@code caller}'s permit to do {@code action}, for work run here for another node. */
  Permit permit(Caller caller, String action) {
    return access.permit(caller, action);
  }

  /**
   * The names starting with {@code prefix} of the queues of {@code place} on those of
   * {@code shards} that serve here (asked by another node's ListQueues), with the shards answered.
   */
  public Future<QueueNames> queueNamesHere(AccountRegion place, String prefix, String deadLetterArn,
      Set<Integer> shards) {
    return listing.namesHere(place, prefix, deadLetterArn, shards);
  }

  /** The server-wide memory budget the shards charge messages to. */
  public MemoryBudget memoryBudget() {
    return budget;
  }

  public QueueActions queues() {
    return queues;
  }

  /**
   * Queue actions for the server's own start-up work (the predefined queues), which runs before
   * serving may begin: not gated. Its writes carry this server's fencing token like any other.
   */
  public QueueActions startupQueues() {
    return startupQueues;
  }

  /** The predefined queues' redelivery backoffs, set at start-up as {@link #startupQueues}: not gated. */
  public RedeliveryBackoffActions startupRedeliveryBackoffs() {
    return startupRedeliveryBackoffs;
  }

  public QueueListing listing() {
    return listing;
  }

  public SendActions sends() {
    return sends;
  }

  public ReceiveActions receives() {
    return receives;
  }

  public ReceiptActions receipts() {
    return receipts;
  }

  public RedriveActions redrive() {
    return redrive;
  }

  /** The console's peek at a queue's messages. */
  public PeekActions peeks() {
    return peeks;
  }

  /** The outbox relay's sends, forgets and receipts. */
  public RelayActions relays() {
    return relays;
  }

  /** The console's redelivery backoff of a queue: read and set on its owning shard. */
  public RedeliveryBackoffActions redeliveryBackoffs() {
    return redeliveryBackoffs;
  }

  /** The SNS side: topics, subscriptions, publishes, and what signs envelopes. */
  /** Triggers' admin actions, and where the runtime that runs them is connected. */
  public TriggerActions triggers() {
    return triggers;
  }

  /** Trigger actions for the server's own start-up work (the triggers of the configuration), as {@link #startupQueues}. */
  public TriggerActions startupTriggers() {
    return startupTriggers;
  }

  public TopicEngine sns() {
    return sns;
  }

  /**
   * Loads {@code shard} again from PostgreSQL, in place: the shard hands over as it would to another
   * node (client calls on it are refused with the retryable ServiceUnavailable meanwhile, parked
   * receives answer empty, everything it changed is written), and a new deployment of it under a
   * new run loads its queues and serves them. Nothing acknowledged is lost, and receipt handles stay
   * valid. Cluster mode moves shards between nodes by the same steps; on one node it serves
   * operators checking a database, and the tests of those steps. Durable mode, direct dispatch only.
   */
  public Future<String> reloadShard(int shard) {
    if (durable == null || !(dispatcher instanceof DirectDispatcher)) {
      return Future.failedFuture(new IllegalStateException("shards are reloaded only in durable mode, with direct"
          + " dispatch"));
    }
    return deployments.drain(shard, dispatcher, "shard " + shard + " is being reloaded")
        .compose(drained -> durable.nextRun())
        .compose(run -> deployments.deploy(shard, ShardTenure.ofDatabase(run, durable.epoch()),
            "shard " + shard + " is loading"))
        .compose(deployed -> deployments.load(shard, dispatcher));
  }

  /**
   * Cluster mode: this node took {@code shard} over at {@code epoch} (its lease), with {@code run}
   * for its keys, and its lease lets it serve until {@code validUntilNanos}; deploys and loads it,
   * then serves it. Answers what was loaded.
   */
  public Future<String> takeShard(int shard, long epoch, long run, long validUntilNanos) {
    slots.validUntil(shard, validUntilNanos);
    return deployments.deploy(shard, new ShardTenure(run, ShardFence.of(shard, epoch)), "shard " + shard
            + " is loading")
        .compose(deployed -> deployments.load(shard, dispatcher));
  }

  /** Cluster mode: a renewal confirmed the shard's lease until {@code nanos} ({@link System#nanoTime}). */
  public void leaseValidUntil(int shard, long nanos) {
    slots.validUntil(shard, nanos);
  }

  /**
   * Cluster mode: hands {@code shard} on to another node. Client calls on it are refused from now on
   * (retryable), the calls it runs finish, and everything it changed is written before this
   * completes; the lease may then be released.
   */
  public Future<Void> handOverShard(int shard) {
    return deployments.drain(shard, dispatcher, "shard " + shard + " is being handed over");
  }

  /**
   * Cluster mode: {@code shard} is no longer this node's (its lease was taken over, or a write of it
   * was refused): nothing more is answered for it, and its deployment goes. Whatever it had not
   * written is refused by PostgreSQL; the new owner has the rest.
   */
  public Future<Void> dropShard(int shard, String because) {
    slots.refuseAnswers(shard, because);
    return deployments.drain(shard, dispatcher, because, false);
  }

  /** Whether {@code shard} is deployed here now (loading, serving or being drained). */
  public boolean holdsShard(int shard) {
    return slots.verticle(shard) != null;
  }

  /**
   * Runs {@code fn} on every shard deployed here at once; answers the results of those that
   * answered (a shard handed over meanwhile has nothing to say).
   */
  private <T> Future<List<T>> onDeployedShards(Function<Shard, T> fn) {
    return onDeployedShards((ShardCall<T>) (s, reply) -> reply.succeed(fn.apply(s)));
  }

  /** {@link #onDeployedShards(Function)} for a call that may answer in a later turn. */
  private <T> Future<List<T>> onDeployedShards(ShardCall<T> call) {
    List<Future<T>> parts = onEachDeployedShard(call);
    return Future.join(parts).transform(done -> Future.succeededFuture(
        parts.stream().filter(Future::succeeded).map(Future::result).toList()));
  }

  private <T> List<Future<T>> onEachDeployedShard(ShardCall<T> call) {
    List<Future<T>> parts = new ArrayList<>();
    for (int i : slots.deployedShards()) {
      parts.add(dispatcher.call(i, call));
    }
    return parts;
  }

  /** Every queue's counts and the parked receives, read on each shard at once. */
  public Future<EngineSample> sample() {
    return onDeployedShards(Shard::sample).map(perShard -> {
      List<QueueSample> queues = new ArrayList<>();
      List<TopicSample> topics = new ArrayList<>();
      int parked = 0;
      long duplicateRows = 0;
      long slabLive = 0;
      long slabAllocated = 0;
      for (EngineSample s : perShard) {
        queues.addAll(s.queues());
        topics.addAll(s.topics());
        parked += s.parkedReceives();
        duplicateRows += s.backlogDuplicateRows();
        slabLive += s.slabLiveBytes();
        slabAllocated += s.slabAllocatedBytes();
      }
      return new EngineSample(queues, parked, duplicateRows, topics, slabLive, slabAllocated);
    });
  }

  /**
   * Every queue's counts and totals, for the console's history: each deployed shard reads at most
   * {@code perTurn} of its queues per event-loop turn, so no turn of a shard does more sampling than
   * that however many queues it holds (design/console.md §2.4). Fails when any shard's reading
   * failed (handed over meanwhile, say): a reading missing a shard would read as its queues deleted.
   * Topics are {@link #sampleTopics}'s.
   */
  public Future<List<QueueSample>> sampleQueues(int perTurn) {
    if (perTurn < 1) {
      throw new IllegalArgumentException("perTurn must be at least 1: " + perTurn);
    }
    List<Future<List<QueueSample>>> parts =
        onEachDeployedShard((ShardCall<List<QueueSample>>) (s, reply) -> s.sampleQueues(perTurn, reply));
    return Future.all(parts).map(done -> {
      List<QueueSample> all = new ArrayList<>();
      parts.forEach(part -> all.addAll(part.result()));
      return all;
    });
  }

  /** Every topic's counts, read on each shard at once: topics only, for the console (see {@link Shard#sampleTopics}). */
  public Future<List<TopicSample>> sampleTopics() {
    return onDeployedShards(Shard::sampleTopics).map(perShard -> {
      List<TopicSample> all = new ArrayList<>();
      perShard.forEach(all::addAll);
      return all;
    });
  }

  /**
   * The server is stopping: every parked receive answers now with no messages, and from now on a
   * receive that finds nothing answers at once instead of waiting.
   */
  public Future<Void> stopParking() {
    forwardedWaits.stop();
    return onDeployedShards(Shard::stopParking).mapEmpty();
  }

  /**
   * The server stops serving for a while ({@code paused}; see {@link ServingGate}): parked receives
   * answer now with no messages and receives do not wait, until it serves again.
   */
  public Future<Void> pauseParking(boolean paused) {
    return onDeployedShards(s -> s.pauseParking(paused)).mapEmpty();
  }
}
