package dev.sluice.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Per shard index, the deployment serving it now (none while it is not deployed here: in cluster
 * mode, a shard another node owns, or one between two deployments) and whether client calls may
 * run on it. Written by whoever deploys, loads and drains shards; read from any thread on every call,
 * so a volatile read each.
 */
final class ShardSlots {
  private final AtomicReferenceArray<ShardVerticle> deployed;
  /** Why new client calls are refused on the shard (loading, draining, lease not confirmed); null: served. */
  private final AtomicReferenceArray<String> closedBecause;
  /** Why answers are refused too (the shard may be another node's by now); null: answered. */
  private final AtomicReferenceArray<String> answersRefusedBecause;
  /**
   * Cluster mode: until when ({@link System#nanoTime}) the shard's lease lets it serve, as the lease
   * keeper last confirmed it; {@link #UNLIMITED} for a single-node server, whose database hold is
   * the server's gate instead.
   */
  private final AtomicLongArray validUntilNanos;
  static final long UNLIMITED = Long.MIN_VALUE;

  ShardSlots(int shards) {
    deployed = new AtomicReferenceArray<>(shards);
    closedBecause = new AtomicReferenceArray<>(shards);
    answersRefusedBecause = new AtomicReferenceArray<>(shards);
    validUntilNanos = new AtomicLongArray(shards);
    for (int i = 0; i < shards; i++) {
      validUntilNanos.set(i, UNLIMITED);
    }
  }

  int size() {
    return deployed.length();
  }

  /** The deployment of {@code shard}, or null. */
  ShardVerticle verticle(int shard) {
    return deployed.get(shard);
  }

  /** Cluster mode: the shard's lease lets it serve until {@code nanos} ({@link System#nanoTime}). */
  void validUntil(int shard, long nanos) {
    validUntilNanos.set(shard, nanos);
  }

  /** Why the shard's lease does not let it serve now, or null. */
  private String leaseExpired(int shard) {
    long until = validUntilNanos.get(shard);
    if (until == UNLIMITED) {
      return null;
    }
    long late = System.nanoTime() - until;
    return late < 0 ? null : "the lease of shard " + shard + " was not renewed in time (" + late / 1_000_000
        + " ms late)";
  }

  /** A new deployment of {@code shard}: closed to client calls until {@link #open}. */
  void deployed(int shard, ShardVerticle verticle, String closedBecause) {
    this.closedBecause.set(shard, closedBecause);
    answersRefusedBecause.set(shard, null);
    deployed.set(shard, verticle);
  }

  /** The deployment is going away: calls reaching the shard from now on fail. */
  void undeployed(int shard) {
    closedBecause.set(shard, "not deployed");
    deployed.set(shard, null);
  }

  void open(int shard) {
    closedBecause.set(shard, null);
    answersRefusedBecause.set(shard, null);
  }

  /** New client calls are refused; calls already running still answer (a hand-over drains them). */
  void close(int shard, String because) {
    closedBecause.set(shard, because);
  }

  /** Nothing more is answered to clients: the shard may be served elsewhere already. */
  void refuseAnswers(int shard, String because) {
    closedBecause.set(shard, because);
    answersRefusedBecause.set(shard, because);
  }

  String closedBecause(int shard) {
    if (deployed.get(shard) == null) {
      return "shard " + shard + " is not served here";
    }
    String closed = closedBecause.get(shard);
    return closed != null ? closed : leaseExpired(shard);
  }

  String answersRefusedBecause(int shard) {
    String refused = answersRefusedBecause.get(shard);
    return refused != null ? refused : leaseExpired(shard);
  }

  /** The indexes of the shards deployed now. */
  List<Integer> deployedShards() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < deployed.length(); i++) {
      if (deployed.get(i) != null) {
        out.add(i);
      }
    }
    return out;
  }
}
