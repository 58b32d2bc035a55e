package dev.sluice.cluster;

import dev.sluice.engine.QueueEngine;
import dev.sluice.persistence.ShardLeaseSql;
import dev.sluice.persistence.ShardLeaseSql.LeaseRow;
import dev.sluice.persistence.ShardLeaseSql.MemberRow;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Which shards this node serves (design page cluster.md, §2.3, §2.14, §2.15): every quarter lease,
 * on a PostgreSQL connection of its own, it renews the leases it holds and its member row, reads
 * every lease and member, and reconciles. Members are the cluster manager's nodes whose member rows
 * are live by PostgreSQL's clock, so a node that stopped renewing leaves the assignment when its
 * leases expire, whatever the cluster manager still believes. {@link ShardAssignment} says who
 * should own each shard; this node claims those meant for it once PostgreSQL lets it (released, or
 * expired), loads and serves them, and hands on those meant for another node (drain, then release).
 * A shard whose renewal PostgreSQL did not confirm, or whose write it refused, was taken over: it is
 * dropped without writing. The engine's gate closes each shard by itself when its lease runs out
 * unconfirmed ({@link ShardLease}), so a node cut off from PostgreSQL, or paused, stops serving
 * before anyone may take its shards.
 *
 * <p>Everything here runs on the context it was started on.
 */
public final class ShardManager {
  private static final System.Logger LOG = System.getLogger(ShardManager.class.getName());
  /** Margin below the lease that the gate closes at (§2.6): clock-rate differences, and answers on their way. */
  static final long MARGIN_MILLIS = 300;
  /** Claims, loads and hand-overs under way at once. */
  static final int MOVES_AT_ONCE = 4;
  /**
   * Rounds a shard may stay claimable without its assigned owner claiming it before any member
   * does: views of the members can differ for a moment, and a shard must not stay unserved.
   */
  static final int ORPHAN_ROUNDS = 3;

  private final Vertx vertx;
  private final Context context;
  private final QueueEngine engine;
  private final PgConnectOptions options;
  private final String nodeId;
  private final long leaseMillis;
  private final Supplier<Set<String>> clusterMembers;
  private final ShardLease[] leases;
  /** Shards with a claim, load or hand-over under way. */
  private final Set<Integer> moving = new HashSet<>();
  private final int[] claimableRounds;
  private PgConnection connection;
  private boolean connecting;
  private boolean roundOpen;
  private final RoundTimer timer;
  private int rounds;
  /** The last round's moves reached {@link #MOVES_AT_ONCE}: some may wait for a slot. */
  private boolean capped;
  /** Every this many rounds, the cluster's queues are read too (dead-letter targets on other nodes). */
  static final int QUEUES_EVERY_ROUNDS = 2;
  private boolean leaving;
  private boolean stopped;
  private final Promise<Void> allReleased = Promise.promise();
  private final RoutingTable routing;

  private ShardManager(Vertx vertx, Context context, QueueEngine engine, PgConnectOptions options, String nodeId,
      int shards, long leaseMillis, Supplier<Set<String>> clusterMembers) {
    this.vertx = vertx;
    this.context = context;
    this.engine = engine;
    this.options = options;
    this.nodeId = nodeId;
    this.leaseMillis = leaseMillis;
    this.clusterMembers = clusterMembers;
    this.leases = new ShardLease[shards];
    for (int i = 0; i < shards; i++) {
      leases[i] = new ShardLease(leaseMillis, MARGIN_MILLIS);
    }
    this.claimableRounds = new int[shards];
    this.routing = new RoutingTable(shards);
    this.timer = new RoundTimer(vertx, nodeId, leaseMillis, this::round);
  }

  /** Where calls for each shard go, by the leases this manager last read. */
  public RoutingTable routing() {
    return routing;
  }

  /** This node's epoch of a shard it holds, or -1. */
  public long heldEpoch(int shard) {
    return leases[shard].epoch();
  }

  /**
   * Starts the rounds on a context of its own; {@code clusterMembers} answers the cluster manager's
   * node ids (this node's among them), from any thread.
   */
  public static ShardManager start(Vertx vertx, QueueEngine engine, PgConnectOptions options, String nodeId,
      int shards, long leaseMillis, Supplier<Set<String>> clusterMembers) {
    Context context = vertx.getOrCreateContext();
    ShardManager m = new ShardManager(vertx, context, engine, options, nodeId, shards, leaseMillis, clusterMembers);
    context.runOnContext(v -> m.round());
    return m;
  }

  static long now() {
    return System.nanoTime() / 1_000_000;
  }

  /** A lease's end on this node's monotonic clock, as the engine's gate reads it. */
  private static long nanos(long millis) {
    return millis * 1_000_000;
  }

  /** Shards this node holds now (loading, serving or being handed over), by the leases it knows. */
  public Set<Integer> held() {
    Set<Integer> out = new HashSet<>();
    for (int s = 0; s < leases.length; s++) {
      if (leases[s].state() != ShardLease.State.ABSENT) {
        out.add(s);
      }
    }
    return out;
  }

  /** From any thread: PostgreSQL refused writes of these shards at these epochs; they are another node's. */
  public void fenced(Map<Integer, Long> stale) {
    context.runOnContext(v -> stale.forEach((shard, epoch) -> {
      if (leases[shard].epoch() == epoch) {
        lose(shard, "a write of shard " + shard + " at epoch " + epoch + " was refused: another node holds it");
      }
    }));
  }

  /**
   * One round: renew, read, reconcile. A round still unanswered when the next is due is not
   * doubled; its shards' gates close by themselves if it never comes back.
   */
  private void round() {
    timer.started();
    if (roundOpen) {
      return;
    }
    if (connection == null) {
      connect();
      return;
    }
    roundOpen = true;
    long sentAt = now();
    List<Integer> shards = new ArrayList<>();
    List<Long> epochs = new ArrayList<>();
    for (int s = 0; s < leases.length; s++) {
      if (leases[s].state() != ShardLease.State.ABSENT) {
        shards.add(s);
        epochs.add(leases[s].epoch());
      }
    }
    int[] heldShards = shards.stream().mapToInt(Integer::intValue).toArray();
    long[] heldEpochs = epochs.stream().mapToLong(Long::longValue).toArray();
    PgConnection conn = connection;
    // Three statements on one connection, pipelined: one round trip's wait.
    Future<Set<Integer>> renewed = ShardLeaseSql.renew(conn, heldShards, heldEpochs, nodeId, leaseMillis, leaving);
    Future<List<LeaseRow>> rows = ShardLeaseSql.leases(conn);
    Future<List<MemberRow>> members = ShardLeaseSql.members(conn);
    if (rounds++ % QUEUES_EVERY_ROUNDS == 0) {
      ShardLeaseSql.queues(conn).onSuccess(all -> engine.clusterQueues(new HashSet<>(all)));
    }
    Future.all(renewed, rows, members).onComplete((all, failure) -> {
      roundOpen = false;
      if (failure != null) {
        LOG.log(System.Logger.Level.WARNING, "Shard leases not renewed: " + failure.getMessage());
        return;
      }
      confirm(heldShards, heldEpochs, renewed.result(), sentAt);
      reconcile(rows.result(), members.result());
      timer.read(rows.result(), members.result());
    });
  }

  private void connect() {
    if (connecting || stopped) {
      return;
    }
    connecting = true;
    PgConnection.connect(vertx, options).onComplete((conn, failure) -> {
      connecting = false;
      if (failure != null) {
        LOG.log(System.Logger.Level.WARNING, "Cannot reach PostgreSQL for the shard leases: " + failure.getMessage());
        return;
      }
      conn.exceptionHandler(e -> {});
      conn.closeHandler(v -> {
        if (connection == conn) {
          connection = null;
          roundOpen = false;
        }
      });
      connection = conn;
      round();
    });
  }

  /** The renewal sent at {@code sentAt} for these shards at these epochs answered {@code renewed}. */
  private void confirm(int[] shards, long[] epochs, Set<Integer> renewed, long sentAt) {
    for (int i = 0; i < shards.length; i++) {
      int s = shards[i];
      ShardLease lease = leases[s];
      if (lease.epoch() != epochs[i]) {
        continue; // released and claimed again meanwhile: this answer is about the old epoch
      }
      if (renewed.contains(s)) {
        lease.renewed(sentAt, true);
        engine.leaseValidUntil(s, nanos(lease.validUntilMillis()));
      } else {
        lose(s, "the lease of shard " + s + " at epoch " + epochs[i] + " was taken over");
      }
    }
  }

  /** Another node holds the shard now: nothing of it is answered or written here any more. */
  private void lose(int shard, String because) {
    if (leases[shard].state() == ShardLease.State.ABSENT) {
      return;
    }
    LOG.log(System.Logger.Level.WARNING, "Lost shard " + shard + ": " + because);
    leases[shard].lost();
    engine.dropShard(shard, because);
  }

  private void reconcile(List<LeaseRow> rows, List<MemberRow> memberRows) {
    Set<String> hazelcast = clusterMembers.get();
    Set<String> members = new HashSet<>();
    for (MemberRow m : memberRows) {
      if (m.live() && hazelcast.contains(m.nodeId())) {
        members.add(m.nodeId());
      }
    }
    String[] owners = new String[leases.length];
    boolean[] claimable = new boolean[leases.length];
    for (LeaseRow r : rows) {
      if (r.shard() >= leases.length) {
        continue;
      }
      boolean expired = r.remainingMillis() == null || r.remainingMillis() <= 0;
      claimable[r.shard()] = r.released() || r.owner() == null || expired;
      owners[r.shard()] = claimable[r.shard()] ? null : r.owner();
      routing.read(r.shard(), owners[r.shard()], r.epoch());
    }
    String[] target = ShardAssignment.rebalance(owners, members);
    boolean member = members.contains(nodeId) && !leaving;
    for (int s = 0; s < leases.length; s++) {
      claimableRounds[s] = claimable[s] ? claimableRounds[s] + 1 : 0;
    }
    for (int s = 0; s < leases.length && moving.size() < MOVES_AT_ONCE; s++) {
      ShardLease lease = leases[s];
      if (moving.contains(s)) {
        continue;
      }
      if (lease.state() == ShardLease.State.ABSENT && claimable[s] && member
          && (nodeId.equals(target[s]) || claimableRounds[s] > ORPHAN_ROUNDS)) {
        claim(s);
      } else if (lease.state() == ShardLease.State.SERVING && (leaving || (target[s] != null
          && !nodeId.equals(target[s])))) {
        handOver(s);
      }
    }
    // More may be waiting than the cap let start: the next round comes as soon as a move ends.
    capped = moving.size() >= MOVES_AT_ONCE;
    if (leaving && held().isEmpty() && moving.isEmpty()) {
      allReleased.tryComplete();
    }
  }

  /** A claim or hand-over ended: if the last round left moves waiting, the next round is now. */
  private void moved(int shard) {
    moving.remove(shard);
    if (capped && !stopped) {
      capped = false;
      round();
    }
  }

  private void claim(int shard) {
    if (connection == null) {
      return;
    }
    moving.add(shard);
    long sentAt = now();
    ShardLeaseSql.claim(connection, shard, nodeId, leaseMillis).compose(claimed -> {
      if (claimed.isEmpty()) {
        return Future.succeededFuture(); // another node was quicker
      }
      ShardLease lease = leases[shard];
      long epoch = claimed.get().epoch();
      lease.claimed(epoch, sentAt);
      return engine.takeShard(shard, epoch, claimed.get().run(), nanos(lease.validUntilMillis()))
          .compose(loaded -> {
            if (lease.epoch() != epoch) {
              // Lost while it loaded (a renewal or a write refused): the deployment goes again.
              return engine.dropShard(shard, "shard " + shard + " was lost while it loaded");
            }
            lease.loaded();
            return Future.<Void>succeededFuture();
          }, failure -> {
            LOG.log(System.Logger.Level.ERROR, "Could not load shard " + shard + "; releasing it", failure);
            return engine.dropShard(shard, "shard " + shard + " could not be loaded").transform(x -> release(shard));
          });
    }).onComplete((done, failure) -> {
      moved(shard);
      if (failure != null) {
        LOG.log(System.Logger.Level.WARNING, "Claim of shard " + shard + " failed: " + failure.getMessage());
      }
    });
  }

  private void handOver(int shard) {
    moving.add(shard);
    leases[shard].draining();
    engine.handOverShard(shard)
        .compose(drained -> release(shard))
        .onComplete((done, failure) -> {
          moved(shard);
          if (failure != null) {
            // Not released: the lease runs out by itself, and the next owner waits for it.
            LOG.log(System.Logger.Level.WARNING, "Hand-over of shard " + shard + " failed: " + failure.getMessage());
          }
          if (leaving && held().isEmpty() && moving.isEmpty()) {
            allReleased.tryComplete();
          }
        });
  }

  /** Gives the lease up (its epoch moves on; the shard is undeployed already) and forgets the shard here. */
  private Future<Void> release(int shard) {
    ShardLease lease = leases[shard];
    long epoch = lease.epoch();
    lease.lost();
    PgConnection conn = connection;
    return conn == null ? Future.failedFuture("no connection to release shard " + shard)
        : ShardLeaseSql.release(conn, shard, epoch, nodeId).mapEmpty();
  }

  /**
   * The node is stopping: the others stop counting it at once, and it hands every shard on, as
   * many at a time as {@link #MOVES_AT_ONCE}. Completes once all are released, or after
   * {@code graceMillis}; the leases of any left run out by themselves.
   */
  public Future<Void> leave(long graceMillis) {
    Promise<Void> left = Promise.promise();
    context.runOnContext(v -> {
      leaving = true;
      Future<Void> expired = connection == null ? Future.succeededFuture()
          : ShardLeaseSql.leaving(connection, nodeId).otherwiseEmpty();
      long deadline = vertx.setTimer(Math.max(1, graceMillis), t -> allReleased.tryComplete());
      expired.compose(x -> {
        round();
        return allReleased.future();
      }).onComplete(done -> {
        vertx.cancelTimer(deadline);
        left.complete();
      });
    });
    return left.future();
  }

  /**
   * The node has stopped serving: no more rounds. Until then, after {@link #leave}, rounds go on
   * holding nothing, so that the calls still arriving for the shards it handed on are forwarded to
   * their new owners as the lease rows name them (stale routing sent them to this node, which no
   * longer serves them, until the forwarding's retry time ran out).
   */
  public Future<Void> close() {
    Promise<Void> closed = Promise.promise();
    context.runOnContext(v -> {
      stopped = true;
      timer.stop();
      PgConnection conn = connection;
      connection = null;
      (conn == null ? Future.<Void>succeededFuture() : conn.close()).onComplete(done -> closed.complete());
    });
    return closed.future();
  }
}
