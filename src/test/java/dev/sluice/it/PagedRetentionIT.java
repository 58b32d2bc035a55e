package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Retention of messages held only in PostgreSQL, through the server (issue 16, design step 5): the
 * rows whose retention ended are deleted in PostgreSQL, counts and rows agree at once, dead letters
 * by the time they were first sent. Waiting out a retention (60 s at least) would be most of a
 * minute per case, so a first server leaves the backlog, the rows' times are moved two days back in
 * PostgreSQL, and a second server, which knows the rows only from PostgreSQL, finds them expired.
 */
class PagedRetentionIT extends DurableServerIT {
  static final long TWO_DAYS = 2 * 24 * 3_600_000L;

  @Test
  void rowsWhoseRetentionEndedInPostgresqlOnlyAreDeletedThereAndUncounted() throws Exception {
    String url;
    String recentUrl;
    try (TestServer first = BacklogIT.pagedServer(20); SqsClient sqs = first.client()) {
      url = sqs.createQueue(b -> b.queueName("expiring").attributesWithStrings(
          Map.of("MessageRetentionPeriod", "60"))).queueUrl();
      recentUrl = sqs.createQueue(b -> b.queueName("recent")).queueUrl();
      BacklogIT.send(first, url, 0, 6_000); // more than one expiry's chunk
      BacklogIT.send(first, recentUrl, 0, 300);
      BacklogIT.assertCounts(sqs, url, 6_000, 0);
    }
    moveBack("expiring", "sent_at = sent_at - " + TWO_DAYS + ", first_visible_at = first_visible_at - " + TWO_DAYS);
    moveBack("recent", "sent_at = sent_at - " + TWO_DAYS + ", first_visible_at = first_visible_at - " + TWO_DAYS);
    try (TestServer second = BacklogIT.pagedServer(20); SqsClient sqs = second.client()) {
      BacklogIT.awaitCounts(sqs, url, 0, 0);
      awaitRows("expiring", 0);
      assertEquals("0", sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
          QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributesAsStrings()
          .get("ApproximateNumberOfMessagesNotVisible"));
      BacklogIT.assertCounts(sqs, recentUrl, 300, 0); // two days are within its four
      assertEquals(300, rows("recent"));
    }
  }

  /**
   * Dead letters keep the time they were first sent (AWS: the expiration of a message is based on
   * its original enqueue timestamp): moved into a queue just now, they expire by that time, found by
   * it rather than by their place in the dead-letter queue's order.
   */
  @Test
  void deadLettersExpireByTheTimeTheyWereFirstSent() throws Exception {
    String dlqUrl;
    try (TestServer first = BacklogIT.pagedServer(20); SqsClient sqs = first.client()) {
      dlqUrl = sqs.createQueue(b -> b.queueName("letters-dlq").attributesWithStrings(
          Map.of("MessageRetentionPeriod", "3600"))).queueUrl();
      String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
          .attributesAsStrings().get("QueueArn");
      String url = sqs.createQueue(b -> b.queueName("letters").attributesWithStrings(Map.of("RedrivePolicy",
          "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"1\"}"))).queueUrl();
      BacklogIT.send(first, url, 0, 500);
      // Each message received once and made visible again, then received beyond its count: moved.
      for (int round = 0; round < 2_000 && !counts(sqs, url).equals("0/0"); round++) {
        sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(0));
      }
      BacklogIT.awaitCounts(sqs, dlqUrl, 500, 0);
    }
    // Sent two days ago, dead-lettered just now: only the sent time moves.
    moveBack("letters-dlq", "sent_at = sent_at - " + TWO_DAYS);
    try (TestServer second = BacklogIT.pagedServer(20); SqsClient sqs = second.client()) {
      BacklogIT.awaitCounts(sqs, dlqUrl, 0, 0);
      awaitRows("letters-dlq", 0);
    }
  }

  static String counts(SqsClient sqs, String url) {
    Map<String, String> a = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
        "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
    return a.get("ApproximateNumberOfMessages") + "/" + a.get("ApproximateNumberOfMessagesNotVisible");
  }

  static void moveBack(String queue, String set) throws Exception {
    sql("UPDATE sluice_messages SET " + set + " WHERE queue_id = (SELECT id FROM sluice_queues WHERE name = $1)",
        queue);
  }

  static long rows(String queue) throws Exception {
    return sql("SELECT count(*) FROM sluice_messages m JOIN sluice_queues q ON q.id = m.queue_id"
        + " AND m.message_key >= q.purged_below_key WHERE q.name = $1", queue);
  }

  static void awaitRows(String queue, long expected) throws Exception {
    long deadline = System.currentTimeMillis() + 20_000;
    long n;
    while ((n = rows(queue)) != expected && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
    }
    assertEquals(expected, n, queue + ": rows left in PostgreSQL");
  }

  /** Runs one statement on the class's PostgreSQL; a count's value, or the rows it changed. */
  static long sql(String statement, String queue) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Pool pool = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
      var rows = pool.preparedQuery(statement).execute(Tuple.of(queue)).await(10, TimeUnit.SECONDS);
      return statement.startsWith("SELECT") ? rows.iterator().next().getLong(0) : rows.rowCount();
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
