package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * What keeps durable mode bounded whatever the backlog: a purge is a few statements and its rows
 * are deleted later by the reaper (a restart in between brings none of them back), and sends are
 * throttled only when PostgreSQL falls too far behind, never losing what was acknowledged.
 */
class DurableBacklogBoundsIT extends DurableServerIT {

  static long count(Pool db, String sql) throws Exception {
    return db.query(sql).execute().await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
  }

  @Test
  void aPurgeThatTheReaperHasNotDeletedYetBringsNothingBackAfterARestart() throws Exception {
    Vertx vertx = Vertx.vertx();
    Pool db = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
    try {
      String url;
      SqlConnection holder;
      Transaction held;
      try (TestServer s = server(); SqsClient sqs = s.clientWithoutRetries()) {
        url = sqs.createQueue(b -> b.queueName("reaped")).queueUrl();
        for (int i = 0; i < 25; i++) {
          int n = i;
          sqs.sendMessage(b -> b.queueUrl(url).messageBody("purged " + n));
        }
        // Row locks on the queue's rows hold the reaper off: the purged rows stay in the table
        // across the restart below, as after a crash before the reaper got to them.
        holder = db.getConnection().await(10, TimeUnit.SECONDS);
        held = holder.begin().await(10, TimeUnit.SECONDS);
        holder.query("SELECT 1 FROM sluice_messages m JOIN sluice_queues q ON q.id = m.queue_id"
            + " WHERE q.name = 'reaped' FOR UPDATE OF m").execute().await(10, TimeUnit.SECONDS);
        sqs.purgeQueue(b -> b.queueUrl(url));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("after the purge"));
        // The server stops while its reaper waits for those locks: the stop must not wait for them.
        awaitReaperWaitingForALock(db);
      }
      assertEquals(26, count(db, "SELECT count(*) FROM sluice_messages"), "the purged rows are still there");
      try (TestServer s = server(); SqsClient sqs = s.clientWithoutRetries()) {
        assertEquals("1", sqs.getQueueAttributes(b -> b.queueUrl(url)
            .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
            .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
        List<String> bodies = new ArrayList<>();
        for (Message m : sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
            .messages()) {
          bodies.add(m.body());
        }
        assertEquals(List.of("after the purge"), bodies);
        held.rollback().await(10, TimeUnit.SECONDS);
        holder.close().await(10, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (count(db, "SELECT count(*) FROM sluice_reaping") > 0) {
          assertTrue(System.nanoTime() < deadline, "the new server's reaper finishes the purge");
          Thread.sleep(100);
        }
        assertEquals(1, count(db, "SELECT count(*) FROM sluice_messages"));
      }
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static void awaitReaperWaitingForALock(Pool db) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (count(db, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        + " AND query LIKE '%DELETE FROM sluice_messages%'") == 0) {
      assertTrue(System.nanoTime() < deadline, "the reaper tries to delete the purged rows");
      Thread.sleep(20);
    }
  }

  @Test
  void sendsAreThrottledOnlyOncePostgresIsTooFarBehindAndNothingAcknowledgedIsLost() throws Exception {
    // Relaxed durability answers before the commit, so writes that PostgreSQL does not take pile up
    // in the writer. A lock that blocks inserts makes PostgreSQL that slow while the server keeps
    // its database (an outage would end its lease and the server would stop serving instead).
    Map<String, String> settings = Map.of("SLUICE_DURABILITY", "relaxed", "SLUICE_PG_MAX_WRITER_BACKLOG_BYTES",
        "100000");
    String body = "x".repeat(1000);
    Set<String> acknowledged = new HashSet<>();
    String url;
    Vertx vertx = Vertx.vertx();
    Pool db = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
    try (TestServer s = server(settings); SqsClient sqs = s.clientWithoutRetries()) {
      url = sqs.createQueue(b -> b.queueName("behind")).queueUrl();
      SqsException throttled = null;
      SqlConnection holder = db.getConnection().await(10, TimeUnit.SECONDS);
      Transaction held = holder.begin().await(10, TimeUnit.SECONDS);
      holder.query("LOCK TABLE sluice_messages IN SHARE MODE").execute().await(10, TimeUnit.SECONDS);
      try {
        for (int i = 0; i < 1000 && throttled == null; i++) {
          try {
            acknowledged.add(sqs.sendMessage(b -> b.queueUrl(url).messageBody(body)).messageId());
          } catch (SqsException e) {
            throttled = e;
          }
        }
      } finally {
        held.rollback().await(10, TimeUnit.SECONDS);
        holder.close().await(10, TimeUnit.SECONDS);
      }
      assertNotNull(throttled, "sends are throttled while PostgreSQL does not keep up");
      assertEquals("RequestThrottled", throttled.awsErrorDetails().errorCode(), throttled.getMessage());
      assertTrue(acknowledged.size() >= 80 && acknowledged.size() <= 110,
          "throttled at the bound of 100,000 bytes of ~1 KB messages, after " + acknowledged.size());
      // Once the writer has caught up, sends go through again.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (true) {
        try {
          acknowledged.add(sqs.sendMessage(b -> b.queueUrl(url).messageBody(body)).messageId());
          break;
        } catch (SqsException e) {
          assertTrue(System.nanoTime() < deadline, "sends resume: " + e.getMessage());
          Thread.sleep(100);
        }
      }
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
    try (TestServer s = server(); SqsClient sqs = s.clientWithoutRetries()) {
      Set<String> received = new HashSet<>();
      List<Message> got;
      do {
        got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(60)).messages();
        got.forEach(m -> received.add(m.messageId()));
      } while (!got.isEmpty());
      assertEquals(acknowledged, received, "every acknowledged send was written once PostgreSQL caught up");
    }
  }
}
