package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.RelaySend;
import dev.sluice.engine.AccountRoot;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.RelayActions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The engine's side of the outbox relay, on a durable server: a row is one message however often
 * it is sent, across restarts, until its receipt is forgotten; a topic's queue subscribers keep the
 * receipts of its copies; a row refused for itself says so, and the rows after it still go.
 */
class RelaySendIT extends DurableServerIT {
  /** The relay acts as the default account's root, as a configured source does. */
  static final AccountRoot RELAY = new AccountRoot("000000000000", "us-east-1", "relay");
  static final String URL = "http://localhost/000000000000/";

  static RelaySend.Entry row(long id, String body) {
    return new RelaySend.Entry(id, body, null, null, null, null);
  }

  static RelaySend.Response send(TestServer s, String queue, RelaySend.Entry... rows) throws Exception {
    return s.sluice.engine().run(EngineActions.RELAY_SEND, RELAY, new RelaySend.Request(URL + queue, "app", 7,
        List.of(rows)), CallerGone.NOT_WATCHED).await(10, TimeUnit.SECONDS);
  }

  static List<String> drain(SqsClient sqs, String url) {
    List<String> bodies = new ArrayList<>();
    while (true) {
      List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(0))
          .messages();
      if (got.isEmpty()) {
        return bodies;
      }
      for (Message m : got) {
        bodies.add(m.body());
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
      }
    }
  }

  @Test
  void aRowIsOneMessageAcrossRestartsUntilItsReceiptIsForgottenAndARefusedRowStopsNoOther() throws Exception {
    String url;
    String firstId;
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      url = sqs.createQueue(b -> b.queueName("orders").attributes(Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE,
          "1024"))).queueUrl();
      RelaySend.Response first = send(s, "orders", row(1, "one"), row(2, "x".repeat(2000)), row(3, "three"));
      assertTrue(first.results().get(0).sent());
      assertFalse(first.results().get(0).duplicate());
      RelaySend.Result tooLarge = first.results().get(1);
      assertFalse(tooLarge.sent());
      assertEquals("InvalidParameterValue", tooLarge.errorCode());
      assertTrue(tooLarge.senderFault(), tooLarge.errorMessage());
      assertTrue(first.results().get(2).sent(), "the row after a refused one still goes");
      firstId = first.results().get(0).messageId();
      assertEquals(List.of("one", "three"), drain(sqs, url), "consumed before the relay could delete its rows");
    }
    // kill the server's memory: the receipts come back from PostgreSQL
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      RelaySend.Response again = send(s, "orders", row(1, "one"), row(3, "three"), row(4, "four"));
      assertTrue(again.results().get(0).duplicate());
      assertEquals(firstId, again.results().get(0).messageId());
      assertTrue(again.results().get(1).duplicate());
      assertFalse(again.results().get(2).duplicate());
      assertEquals(List.of("four"), drain(sqs, url));

      s.sluice.engine().run(EngineActions.RELAY_FORGET, RELAY, new RelaySend.Forget(URL + "orders", "app", 7,
          List.of(1L, 3L)), CallerGone.NOT_WATCHED).await(10, TimeUnit.SECONDS);
      List<RelaySend.Held> held = s.sluice.engine().relays().heldHere("app").await(10, TimeUnit.SECONDS);
      assertEquals(1, held.size());
      assertEquals("orders", held.get(0).queue().name());
      assertEquals(List.of(4L), held.get(0).rowIds());
    }
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      assertEquals(List.of(4L), s.sluice.engine().relays().heldHere("app").await(10, TimeUnit.SECONDS).get(0)
          .rowIds(), "a forgotten receipt is forgotten in the store too");
      assertFalse(send(s, "orders", row(1, "one")).results().get(0).duplicate(),
          "a forgotten row would be a new message: the relay forgets only rows that left its outbox");
      assertEquals(List.of("one"), drain(sqs, url));
      sqs.deleteQueue(b -> b.queueUrl(url));
    }
  }

  /**
   * Under relaxed durability a send is answered before its commit, but a relayed row is answered
   * only once its message and receipt are committed: the relay deletes the row when answered.
   */
  @Test
  void underRelaxedDurabilityARowIsStillAnsweredOnlyOnceCommitted() throws Exception {
    try (TestServer s = server(Map.of("SLUICE_DURABILITY", "relaxed", "SLUICE_PG_FLUSH_INTERVAL_MILLIS", "200"));
        SqsClient sqs = s.client()) {
      String url = sqs.createQueue(b -> b.queueName("relaxed")).queueUrl();
      send(s, "relaxed", row(21, "twenty-one"));
      io.vertx.sqlclient.Pool store = io.vertx.pgclient.PgBuilder.pool()
          .connectingTo(io.vertx.pgclient.PgConnectOptions.fromUri(pg.url())).using(s.sluice.vertx()).build();
      try {
        long receipts = store.query("SELECT count(*) FROM sluice_relay_receipts WHERE source = 'app' AND row_id = 21")
            .execute().await(10, TimeUnit.SECONDS).iterator().next().getLong(0);
        assertEquals(1, receipts, "the receipt was committed before the answer");
      } finally {
        store.close().await(10, TimeUnit.SECONDS);
      }
      assertEquals(List.of("twenty-one"), drain(sqs, url));
      sqs.deleteQueue(b -> b.queueUrl(url));
    }
  }

  /**
   * In a FIFO queue a row refused for now (here the memory budget is full) holds back the later
   * rows of its group in the same call, so the group keeps its order; other groups still go.
   */
  @Test
  void aFifoRowRefusedForNowHoldsBackTheRestOfItsGroupOnly() throws Exception {
    try (TestServer s = TestServer.start(Map.of("SLUICE_ENGINE_MEMORY_BUDGET_BYTES", "20000"));
        SqsClient sqs = s.client()) {
      sqs.createQueue(b -> b.queueName("held.fifo").attributesWithStrings(Map.of("FifoQueue", "true",
          "ContentBasedDeduplication", "true")));
      RelaySend.Response r = send(s, "held.fifo", new RelaySend.Entry(1, "a", null, null, "g1", null),
          new RelaySend.Entry(2, "b".repeat(40_000), null, null, "g1", null),
          new RelaySend.Entry(3, "c", null, null, "g1", null),
          new RelaySend.Entry(4, "d", null, null, "g2", null));
      assertTrue(r.results().get(0).sent());
      RelaySend.Result refused = r.results().get(1);
      assertFalse(refused.sent());
      assertFalse(refused.senderFault(), refused.errorCode() + ": " + refused.errorMessage());
      assertFalse(r.results().get(2).sent(), "held back behind row 2");
      assertFalse(r.results().get(2).senderFault());
      assertTrue(r.results().get(3).sent(), "another group is not held back");
      assertEquals(List.of(1L, 4L), s.sluice.engine().relays().heldHere("app").await(10, TimeUnit.SECONDS).get(0)
          .rowIds().stream().sorted().toList());
    }
  }

  @Test
  void aQueueThatDoesNotExistFailsTheCallForTheRowsSake() throws Exception {
    try (TestServer s = server()) {
      ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
          () -> s.sluice.engine().run(EngineActions.RELAY_SEND, RELAY, new RelaySend.Request(URL + "nowhere", "app", 7,
              List.of(row(1, "one"))), CallerGone.NOT_WATCHED).toCompletionStage().toCompletableFuture()
              .get(10, TimeUnit.SECONDS));
      assertTrue(RelayActions.rowAtFault(refused.getCause()), refused.getCause().toString());
    }
  }

  @Test
  void aTopicsQueueSubscribersKeepOneCopyOfARowPublishedTwice() throws Exception {
    try (TestServer s = server(); SqsClient sqs = s.client();
        SnsClient sns = SnsClient.builder().endpointOverride(s.endpoint).region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
            .build()) {
      String a = sqs.createQueue(b -> b.queueName("audit")).queueUrl();
      String b2 = sqs.createQueue(b -> b.queueName("billing")).queueUrl();
      String topic = sns.createTopic(b -> b.name("orders")).topicArn();
      for (String q : List.of("audit", "billing")) {
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint("arn:aws:sqs:us-east-1:000000000000:" + q)
            .attributes(Map.of("RawMessageDelivery", "true")));
      }
      RelaySend.Publish publish = new RelaySend.Publish(topic, "app", 7, List.of(row(9, "created"),
          new RelaySend.Entry(10, "late", 5, null, null, null)));
      for (int attempt = 0; attempt < 2; attempt++) {
        RelaySend.Response r = s.sluice.engine().run(EngineActions.RELAY_PUBLISH, RELAY, publish,
            CallerGone.NOT_WATCHED).await(10, TimeUnit.SECONDS);
        assertTrue(r.results().get(0).sent());
        assertNull(r.results().get(0).errorCode());
        assertTrue(r.results().get(1).senderFault(), "a topic's message cannot be delayed");
      }
      assertEquals(List.of("created"), drain(sqs, a));
      assertEquals(List.of("created"), drain(sqs, b2));
    }
  }
}
