package dev.sluice.cluster;

import dev.sluice.persistence.ShardLeaseSql.LeaseRow;
import dev.sluice.persistence.ShardLeaseSql.MemberRow;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * When the shard manager's rounds run: every quarter of the lease, and brought forward to just after
 * another node's lease or member row runs out, so that a failed node's shards are claimed the moment
 * PostgreSQL lets them be, not up to a round later. Owned by the manager's event loop.
 */
final class RoundTimer {
  /** How long after another node's lease runs out by PostgreSQL's clock a claim is sent. */
  static final long EXPIRY_SLACK_MILLIS = 20;

  private final Vertx vertx;
  private final String nodeId;
  private final long periodMillis;
  private final Runnable round;
  private long timer = -1;
  /** A round brought forward to when a lease or member row of another node runs out; -1: none. */
  private long early = -1;
  private boolean stopped;

  RoundTimer(Vertx vertx, String nodeId, long leaseMillis, Runnable round) {
    this.vertx = vertx;
    this.nodeId = nodeId;
    this.periodMillis = Math.max(1, leaseMillis / 4);
    this.round = round;
  }

  /** A round starts now: the next is due a period from now. */
  void started() {
    if (!stopped) {
      vertx.cancelTimer(timer);
      timer = vertx.setTimer(periodMillis, t -> round.run());
    }
  }

  /** A round read these rows: the next comes forward to the earliest expiry among other nodes', if sooner. */
  void read(List<LeaseRow> rows, List<MemberRow> members) {
    long next = Long.MAX_VALUE;
    for (LeaseRow r : rows) {
      if (!r.released() && r.remainingMillis() != null && r.remainingMillis() > 0 && !nodeId.equals(r.owner())) {
        next = Math.min(next, r.remainingMillis());
      }
    }
    for (MemberRow m : members) {
      if (m.live() && !nodeId.equals(m.nodeId())) {
        next = Math.min(next, m.remainingMillis());
      }
    }
    if (!stopped && early < 0 && next < periodMillis) {
      early = vertx.setTimer(next + EXPIRY_SLACK_MILLIS, t -> {
        early = -1;
        round.run();
      });
    }
  }

  /** No more rounds. */
  void stop() {
    stopped = true;
    vertx.cancelTimer(timer);
    vertx.cancelTimer(early);
  }
}
