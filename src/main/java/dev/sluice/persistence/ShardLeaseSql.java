package dev.sluice.persistence;

import dev.sluice.api.QueueKey;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The statements of cluster membership and shard leases (schema V7), beside the migration and the
 * fence function they must agree with, and typed calls running them. Every time a lease is judged
 * by is PostgreSQL's ({@code clock_timestamp()}): a node's own clock only measures how long ago it
 * sent a statement, so the nodes' clocks need to agree in rate, never in value.
 *
 * <p>Ownership changes only here, and always moves the shard's epoch on: a take-over ({@link #CLAIM})
 * only once the lease was released or has expired, a release ({@link #RELEASE}) only by its holder.
 * A write of an older epoch then fails in {@code sluice_shard_fence}, and a take-over waits for the
 * writes of the old epoch still in flight (see V7).
 */
public final class ShardLeaseSql {
  /** The advisory lock (per transaction) under which nodes join one at a time. */
  static final long JOIN_LOCK = 0x51_1ce_0003L;

  /** Records the shard count at the first cluster start; answers the recorded one. Under the join lock. */
  static final String RECORD_SHARDS = "INSERT INTO sluice_cluster (id, shards, created_at) VALUES (1, $1, $2)"
      + " ON CONFLICT (id) DO UPDATE SET id = 1 RETURNING shards";
  /** A lease row for every shard, unowned at epoch 0, for those not there yet. */
  static final String LEASE_ROWS = "INSERT INTO sluice_shard_leases (shard, epoch) SELECT s, 0"
      + " FROM generate_series(0, $1 - 1) s ON CONFLICT (shard) DO NOTHING";
  /**
   * Fences a single-node server that may still be running paused (it took the database before):
   * the database's epoch moves on once, when the cluster takes it over, and the row says who holds
   * it. The update waits for that server's writes in flight (their FOR SHARE).
   */
  static final String TAKE_DATABASE = "UPDATE sluice_owner SET epoch = epoch + 1, released = false,"
      + " holder = 'cluster', acquired_at = $1 WHERE id = 1 AND holder IS DISTINCT FROM 'cluster'";
  /** Forgets nodes long gone: each start of a process is a new node. */
  static final String FORGET_MEMBERS = "DELETE FROM sluice_cluster_members"
      + " WHERE expires_at < clock_timestamp() - interval '1 hour'";
  /** The node's member row, live for a lease from now. */
  static final String JOIN = "INSERT INTO sluice_cluster_members (node_id, holder, address, config_hash, started_at,"
      + " expires_at) VALUES ($1, $2, $3, $4, $5, clock_timestamp() + $6 * interval '1 millisecond')";
  /** A clean stop: the node is no member from now on. */
  static final String LEAVE = "DELETE FROM sluice_cluster_members WHERE node_id = $1";
  /** The node is leaving: the others stop counting it now, and take the shards it releases. */
  static final String LEAVING = "UPDATE sluice_cluster_members SET expires_at = clock_timestamp() WHERE node_id = $1";

  /**
   * Takes over a shard released or expired by PostgreSQL's clock: the next epoch, and a new run
   * (the acquisition's key space). No row answered: another node holds the shard.
   */
  static final String CLAIM = "UPDATE sluice_shard_leases SET epoch = epoch + 1, owner = $2, released = false,"
      + " run = nextval('sluice_runs'), renewed_at = clock_timestamp(),"
      + " expires_at = clock_timestamp() + $3 * interval '1 millisecond'"
      + " WHERE shard = $1 AND (released OR expires_at IS NULL OR expires_at < clock_timestamp())"
      + " RETURNING epoch, run";
  /**
   * Renews the node's leases still at the epochs it holds them at, and the member row $5 (the
   * node's own; null once it is leaving, so that the others stop counting it while it hands its
   * shards over); answers the shards renewed. A shard missing from the answer was taken over (or released): it is lost. A
   * renewal executing after its lease expired, before anyone took the shard, revives it, which is
   * safe: nobody else holds it. Changes no key column, so it neither waits for writes nor holds
   * them up.
   */
  static final String RENEW = "WITH r AS (UPDATE sluice_shard_leases l SET renewed_at = clock_timestamp(),"
      + " expires_at = clock_timestamp() + $3 * interval '1 millisecond'"
      + " FROM unnest($1::int[], $2::bigint[]) AS h(shard, epoch)"
      + " WHERE l.shard = h.shard AND l.epoch = h.epoch AND l.owner = $4 AND NOT l.released RETURNING l.shard),"
      + " m AS (UPDATE sluice_cluster_members SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'"
      + " WHERE node_id = $5)"
      + " SELECT shard FROM r";
  /** Every shard's lease, with the time it has left by PostgreSQL's clock (NULL when released). */
  static final String READ_LEASES = "SELECT shard, epoch, owner, released, run,"
      + " (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint AS remaining_ms"
      + " FROM sluice_shard_leases ORDER BY shard";
  /** The nodes that joined, and the time each has left by PostgreSQL's clock (live while above 0). */
  static final String READ_MEMBERS = "SELECT node_id, address, config_hash,"
      + " (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint AS remaining_ms"
      + " FROM sluice_cluster_members ORDER BY node_id";
  /**
   * Gives a shard up after a clean hand-over. The epoch moves on here too, so a straggling write of
   * the old epoch fails at once (and this waits for the ones in flight); the taker moves it again.
   */
  static final String RELEASE = "UPDATE sluice_shard_leases SET epoch = epoch + 1, owner = NULL, released = true,"
      + " expires_at = NULL WHERE shard = $1 AND epoch = $2 AND owner = $3 AND NOT released RETURNING epoch";

  /** A shard's lease as PostgreSQL holds it. {@code remainingMillis} is null when released. */
  public record LeaseRow(int shard, long epoch, String owner, boolean released, long run, Long remainingMillis) {}

  /** A node that joined, and the time its row has left ({@link #live} while above 0). */
  public record MemberRow(String nodeId, String address, String configHash, long remainingMillis) {
    public boolean live() {
      return remainingMillis > 0;
    }
  }

  /** A take-over: the epoch every write for the shard carries from now on, and the acquisition's run. */
  public record Claimed(long epoch, long run) {}

  /** The cluster's recorded shard count differs from this node's {@code cluster.shards}. */
  public static final class ShardCountMismatch extends IllegalStateException {
    private final int recorded;

    ShardCountMismatch(int configured, int recorded) {
      super("cluster.shards is " + configured + ", but this database's cluster has " + recorded
          + " (SLUICE_CLUSTER_SHARDS); the count is fixed when a cluster first starts");
      this.recorded = recorded;
    }

    public int recorded() {
      return recorded;
    }
  }

  private ShardLeaseSql() {}

  /**
   * Joins the cluster, one node at a time: records the shard count at the first start (and fails
   * with {@link ShardCountMismatch} if this node's differs), makes the lease rows, fences a
   * single-node server that used the database before, and writes this node's member row.
   */
  public static Future<Void> join(Pool pool, int shards, String nodeId, String holder, String address,
      String configHash, long leaseMillis) {
    long now = System.currentTimeMillis();
    return pool.withTransaction(conn -> conn.query("SELECT pg_advisory_xact_lock(" + JOIN_LOCK + ")").execute()
        .compose(v -> conn.preparedQuery(RECORD_SHARDS).execute(Tuple.of(shards, now)))
        .compose(rows -> {
          int recorded = rows.iterator().next().getInteger(0);
          if (recorded != shards) {
            return Future.failedFuture(new ShardCountMismatch(shards, recorded));
          }
          return conn.preparedQuery(LEASE_ROWS).execute(Tuple.of(shards));
        })
        .compose(v -> conn.preparedQuery(TAKE_DATABASE).execute(Tuple.of(now)))
        .compose(v -> conn.query(FORGET_MEMBERS).execute())
        .compose(v -> conn.preparedQuery(JOIN).execute(Tuple.of(nodeId, holder, address, configHash, now, leaseMillis)))
        .mapEmpty());
  }

  /** This node is leaving: its member row expires now, so the others stop counting it. */
  public static Future<Void> leaving(SqlClient client, String nodeId) {
    return client.preparedQuery(LEAVING).execute(Tuple.of(nodeId)).mapEmpty();
  }

  /** Deletes this node's member row (a clean stop, its shards already released). */
  public static Future<Void> leave(SqlClient client, String nodeId) {
    return client.preparedQuery(LEAVE).execute(Tuple.of(nodeId)).mapEmpty();
  }

  /** Takes over {@code shard} if its lease was released or has expired; empty if another node holds it. */
  public static Future<Optional<Claimed>> claim(SqlClient client, int shard, String nodeId, long leaseMillis) {
    return client.preparedQuery(CLAIM).execute(Tuple.of(shard, nodeId, leaseMillis)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row r = rows.iterator().next();
      return Optional.of(new Claimed(r.getLong(0), r.getLong(1)));
    });
  }

  /**
   * Renews the leases of {@code shards} at {@code epochs} (parallel arrays) held by {@code nodeId},
   * and its member row unless it is {@code leaving}; answers the shards renewed.
   */
  public static Future<Set<Integer>> renew(SqlClient client, int[] shards, long[] epochs, String nodeId,
      long leaseMillis, boolean leaving) {
    Integer[] s = new Integer[shards.length];
    Long[] e = new Long[epochs.length];
    for (int i = 0; i < shards.length; i++) {
      s[i] = shards[i];
      e[i] = epochs[i];
    }
    Tuple t = Tuple.tuple().addArrayOfInteger(s).addArrayOfLong(e).addLong(leaseMillis).addString(nodeId)
        .addString(leaving ? null : nodeId);
    return client.preparedQuery(RENEW).execute(t).map(rows -> {
      Set<Integer> renewed = new HashSet<>();
      for (Row r : rows) {
        renewed.add(r.getInteger(0));
      }
      return renewed;
    });
  }

  /** Gives up {@code shard} held at {@code epoch}; answers the new epoch, empty if it was not held so. */
  public static Future<Optional<Long>> release(SqlClient client, int shard, long epoch, String nodeId) {
    return client.preparedQuery(RELEASE).execute(Tuple.of(shard, epoch, nodeId))
        .map(rows -> rows.size() == 0 ? Optional.<Long>empty() : Optional.of(rows.iterator().next().getLong(0)));
  }

  /** Every queue of the cluster, whichever node holds it (dead-letter targets on other nodes). */
  public static Future<List<QueueKey>> queues(SqlClient client) {
    return client.query("SELECT account_id, region, name FROM sluice_queues").execute().map(rows -> {
      List<QueueKey> out = new ArrayList<>(rows.size());
      for (Row r : rows) {
        out.add(new QueueKey(r.getString(0), r.getString(1), r.getString(2)));
      }
      return out;
    });
  }

  /** Every shard's lease, by shard. */
  public static Future<List<LeaseRow>> leases(SqlClient client) {
    return client.query(READ_LEASES).execute().map(rows -> {
      List<LeaseRow> out = new ArrayList<>(rows.size());
      for (Row r : rows) {
        out.add(new LeaseRow(r.getInteger(0), r.getLong(1), r.getString(2), r.getBoolean(3), r.getLong(4),
            r.getLong(5)));
      }
      return out;
    });
  }

  /** Every node that joined, live or not, by node id. */
  public static Future<List<MemberRow>> members(SqlClient client) {
    return client.query(READ_MEMBERS).execute().map(rows -> {
      List<MemberRow> out = new ArrayList<>(rows.size());
      for (Row r : rows) {
        out.add(new MemberRow(r.getString(0), r.getString(1), r.getString(2), r.getLong(3)));
      }
      return out;
    });
  }
}
