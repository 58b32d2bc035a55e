package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.it.ClusterProcesses.Node;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Cluster mode's fencing: of two nodes, one frozen (SIGSTOP) under load past its leases, whose shards
 * move to the other meanwhile, then thawed (SIGCONT), writes nothing for those shards after they moved,
 * whatever it had under way: PostgreSQL refuses its writes ({@code sluice_shard_fence}). Checked on
 * the database: an audit trigger records every committed change of {@code sluice_messages} with the
 * session that made it, another every take-over of a shard, and no change of the frozen node to a
 * moved shard's queue comes after that shard's take-over. And on the clients: every send it
 * acknowledged is stored. So that the frozen node has writes on their way when its shards move, a
 * table lock holds its next statements in PostgreSQL, before any of them runs, until the take-over
 * has happened: they then run, late, and the fence must refuse them (its log says so). Then the same
 * round with the fence function replaced by one that checks nothing must find such a late write:
 * this test fails when the epoch check is skipped.
 */
@NeedsTools(Tool.POSTGRESQL)
@Isolated
class ClusterFencingIT {
  static ThrowawayPostgres pg;
  static Vertx vertx;

  static final String AUDIT = "CREATE TABLE audit_writes (at TIMESTAMPTZ NOT NULL, app TEXT NOT NULL, op TEXT NOT NULL,"
      + " queue_id BIGINT NOT NULL);"
      + " CREATE TABLE audit_takeovers (at TIMESTAMPTZ NOT NULL, shard INTEGER NOT NULL, owner TEXT, epoch BIGINT);"
      + " CREATE FUNCTION audit_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
      + " INSERT INTO audit_writes VALUES (clock_timestamp(), current_setting('application_name'), TG_OP,"
      + " CASE WHEN TG_OP = 'DELETE' THEN OLD.queue_id ELSE NEW.queue_id END); RETURN NULL; END $$;"
      + " CREATE TRIGGER audit_messages AFTER INSERT OR UPDATE OR DELETE ON sluice_messages"
      + " FOR EACH ROW EXECUTE FUNCTION audit_write();"
      + " CREATE FUNCTION audit_takeover() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
      + " IF NEW.epoch <> OLD.epoch THEN INSERT INTO audit_takeovers VALUES (clock_timestamp(), NEW.shard, NEW.owner,"
      + " NEW.epoch); END IF; RETURN NULL; END $$;"
      + " CREATE TRIGGER audit_leases AFTER UPDATE ON sluice_shard_leases FOR EACH ROW EXECUTE FUNCTION audit_takeover()";

  /** A fence that checks nothing: what a write that skips the epoch check would do. */
  static final String MUTANT_FENCE = "CREATE OR REPLACE FUNCTION sluice_shard_fence(shards INTEGER[], epochs BIGINT[])"
      + " RETURNS INTEGER LANGUAGE plpgsql AS $$ BEGIN RETURN cardinality(shards); END $$";

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  @Test
  void aFrozenNodeWritesNothingForTheShardsThatMovedWhileItWasFrozen() throws Exception {
    // Two nodes: the frozen one and the one its shards move to (and back, for the second round).
    try (ClusterProcesses cluster = ClusterProcesses.start(pg.url(), vertx, 2, Map.of())) {
      cluster.awaitBalanced(Duration.ofSeconds(90));
      cluster.db.query(AUDIT).execute().await(10, TimeUnit.SECONDS);
      Node victim = cluster.nodes.get(0);

      assertEquals(List.of(), freezeRound(cluster, victim, "fence"),
          "no write of the frozen node after its shards moved");
      assertTrue(refusedWrite(victim), "the frozen node's late writes were refused");

      // The same round with the check taken out of the fence must see such a write.
      cluster.db.query(MUTANT_FENCE).execute().await(10, TimeUnit.SECONDS);
      List<String> mutant = freezeRound(cluster, victim, "mutant");
      assertFalse(mutant.isEmpty(), "with the epoch check skipped, the frozen node's late writes are seen");
      System.out.println("ClusterFencingIT: with the epoch check skipped, " + mutant.size() + " late writes, e.g. "
          + mutant.get(0));
    }
  }

  static boolean refusedWrite(Node n) throws Exception {
    return Files.readString(n.log()).contains("was refused: another node holds it");
  }

  /**
   * Loads a queue of {@code victim}'s, freezes it past its leases while its shards move, thaws it,
   * and answers what the audit shows it wrote too late. Every send it acknowledged must be stored.
   */
  static List<String> freezeRound(ClusterProcesses cluster, Node victim, String name) throws Exception {
    cluster.awaitBalanced(Duration.ofSeconds(60));
    String queue = cluster.queueOwnedBy(victim, name + "-", "");
    String url = victim.url(queue);
    try (SqsClient sqs = victim.client()) {
      sqs.createQueue(b -> b.queueName(queue));
    }
    ExecutorService pool = Executors.newCachedThreadPool();
    AtomicBoolean running = new AtomicBoolean(true);
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> load = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      boolean sender = t < 3;
      load.add(pool.submit(() -> {
        try (SqsClient sqs = victim.clientWithoutRetries()) {
          while (running.get()) {
            try {
              if (sender) {
                List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                  entries.add(SendMessageBatchRequestEntry.builder().id("e" + i)
                      .messageBody(name + "-" + next.getAndIncrement() + "-" + "x".repeat(2000)).build());
                }
                sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries)).successful().forEach(e -> acknowledged
                    .add(entries.get(Integer.parseInt(e.id().substring(1))).messageBody()));
              } else {
                List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
                if (!got.isEmpty()) {
                  List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
                  for (Message m : got) {
                    entries.add(DeleteMessageBatchRequestEntry.builder().id("d" + entries.size())
                        .receiptHandle(m.receiptHandle()).build());
                  }
                  sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(entries));
                }
              }
            } catch (software.amazon.awssdk.core.exception.SdkException refused) {
              Thread.sleep(20); // ServiceUnavailable once the node lost the shard: it keeps trying
            }
          }
        }
        return null;
      }));
    }
    Thread.sleep(1000);
    // The node's next writes wait in PostgreSQL behind a table lock, before anything of them runs,
    // while it is frozen and its shards move; the lock then lets them run, after the take-over.
    PgConnection lock = PgConnection.connect(vertx, PgConnectOptions.fromUri(cluster.pgUrl)).await(10, TimeUnit.SECONDS);
    try {
      lock.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
      lock.query("LOCK TABLE sluice_messages IN EXCLUSIVE MODE").execute().await(10, TimeUnit.SECONDS);
      Thread.sleep(500);
      String frozenAt = cluster.rows("SELECT clock_timestamp()::text").get(0).getString(0);
      new ProcessBuilder("kill", "-STOP", Long.toString(victim.pid())).start().waitFor();
      try {
        awaitTakeOver(cluster, ClusterProcesses.shardOf(queue), cluster.nodeId(victim), frozenAt);
      } finally {
        lock.query("COMMIT").execute().await(10, TimeUnit.SECONDS);
        Thread.sleep(1000); // the writes that waited run now, the node still frozen
        new ProcessBuilder("kill", "-CONT", Long.toString(victim.pid())).start().waitFor();
      }
    } finally {
      lock.close().await(10, TimeUnit.SECONDS);
    }
    Thread.sleep(1500);
    running.set(false);
    for (Future<?> f : load) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdownNow();

    List<String> late = lateWrites(cluster, victim);
    // Every send it acknowledged was stored (and may have been received and deleted since).
    long inserted = cluster.rows("SELECT count(*) FROM audit_writes w JOIN sluice_queues q ON q.id = w.queue_id"
        + " WHERE q.name = '" + queue + "' AND w.op = 'INSERT'").get(0).getLong(0);
    assertTrue(inserted >= acknowledged.size(), name + ": " + acknowledged.size() + " sends acknowledged, "
        + inserted + " stored");
    return late;
  }

  /** Waits until another node than {@code frozen} took {@code shard} over after {@code since}. */
  static void awaitTakeOver(ClusterProcesses cluster, int shard, String frozen, String since) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      if (!cluster.rows("SELECT 1 FROM audit_takeovers WHERE shard = " + shard + " AND owner IS NOT NULL"
          + " AND owner <> '" + frozen + "' AND at > '" + since + "'").isEmpty()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("shard " + shard + " was not taken over from the frozen node within 20 s");
  }

  /**
   * Changes the frozen node committed to a queue while the last change of its shard's lease before
   * them (since the audit began) gave the shard to someone else, or released it: writes made
   * without the lease. Sessions are told apart by their application name, which names the process.
   */
  static List<String> lateWrites(ClusterProcesses cluster, Node victim) throws Exception {
    StringBuilder shards = new StringBuilder();
    for (Row r : cluster.rows("SELECT id, name FROM sluice_queues")) {
      shards.append(shards.length() == 0 ? "" : ", ").append('(').append(r.getLong(0)).append(", ")
          .append(ClusterProcesses.shardOf(r.getString(1))).append(')');
    }
    if (shards.length() == 0) {
      return List.of();
    }
    String victimId = cluster.nodeId(victim);
    List<String> late = new ArrayList<>();
    for (Row r : cluster.rows("WITH qs(queue_id, shard) AS (VALUES " + shards + ")"
        + " SELECT w.at::text, w.queue_id, w.op, t.at::text, coalesce(t.owner, 'nobody (released)'), qs.shard"
        + " FROM audit_writes w JOIN qs ON qs.queue_id = w.queue_id"
        + " CROSS JOIN LATERAL (SELECT a.at, a.owner FROM audit_takeovers a WHERE a.shard = qs.shard AND a.at < w.at"
        + " ORDER BY a.at DESC LIMIT 1) t"
        + " WHERE w.app LIKE '%pid " + victim.pid() + " node %' AND t.owner IS DISTINCT FROM '" + victimId + "'"
        + " ORDER BY w.at LIMIT 20")) {
      late.add(r.getString(2) + " on queue " + r.getLong(1) + " (shard " + r.getInteger(5) + ") at " + r.getString(0)
          + ", after the shard went to " + r.getString(4) + " at " + r.getString(3));
    }
    return late;
  }
}
