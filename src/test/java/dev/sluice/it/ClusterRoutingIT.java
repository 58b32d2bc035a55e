package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.it.ClusterProcesses.Node;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import io.vertx.core.Vertx;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Cluster mode's routing: three packaged nodes on one PostgreSQL, and clients that each talk to
 * one node only. Every node answers every request: a call for a queue whose shard another node
 * holds is forwarded to it and answered from there, ListQueues lists the queues of every node, a
 * long poll waits on the owner and is woken by a send through any node, a client that leaves a
 * long poll at its node ends it on the owner, dead letters and move tasks cross nodes, and a
 * redelivery backoff set through the console's admin API of any node is the owner's.
 */
@NeedsTools(Tool.POSTGRESQL)
@Isolated
class ClusterRoutingIT {
  static ThrowawayPostgres pg;
  static Vertx vertx;
  static ClusterProcesses cluster;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
    vertx = Vertx.vertx();
    cluster = ClusterProcesses.start(pg.url(), vertx, 3, Map.of());
    cluster.awaitBalanced(Duration.ofSeconds(90));
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    vertx.close().await(10, TimeUnit.SECONDS);
    pg.close();
  }

  static Node node(int i) {
    return cluster.nodes.get(i);
  }

  @Test
  void aClientOfOneNodeUsesQueuesHeldByEveryNodeAndListsThemAll() throws Exception {
    Node entry = node(2);
    List<String> queues = new ArrayList<>();
    for (Node owner : cluster.nodes) {
      queues.add(cluster.queueOwnedBy(owner, "routed-", ""));
      queues.add(cluster.queueOwnedBy(owner, "routed-", ".fifo"));
    }
    try (SqsClient sqs = entry.client()) {
      for (String q : queues) {
        boolean fifo = q.endsWith(".fifo");
        String url = sqs.createQueue(b -> b.queueName(q).attributesWithStrings(fifo
            ? Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true") : Map.of())
            .tags(Map.of("team", "routing"))).queueUrl();
        assertEquals(entry.url(q), url, "URLs name the node the client talks to");
        for (int i = 0; i < 5; i++) {
          int n = i;
          sqs.sendMessage(b -> b.queueUrl(url).messageBody("m-" + n).messageGroupId(fifo ? "g" : null));
        }
        List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
        for (int i = 5; i < 10; i++) {
          batch.add(SendMessageBatchRequestEntry.builder().id("e" + i).messageBody("m-" + i)
              .messageGroupId(fifo ? "g" : null).build());
        }
        assertEquals(5, sqs.sendMessageBatch(b -> b.queueUrl(url).entries(batch)).successful().size());
        assertEquals("10", sqs.getQueueAttributes(b -> b.queueUrl(url)
            .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributesAsStrings()
            .get("ApproximateNumberOfMessages"), q);
        assertEquals(Map.of("team", "routing"), sqs.listQueueTags(b -> b.queueUrl(url)).tags());

        List<String> bodies = new ArrayList<>();
        while (bodies.size() < 10) {
          List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
              .messageSystemAttributeNames(MessageSystemAttributeName.SEQUENCE_NUMBER)).messages();
          assertTrue(!got.isEmpty(), q + ": received " + bodies.size() + " of 10");
          got.forEach(m -> bodies.add(m.body()));
          List<DeleteMessageBatchRequestEntry> deletes = new ArrayList<>();
          for (Message m : got) {
            deletes.add(DeleteMessageBatchRequestEntry.builder().id("d" + deletes.size())
                .receiptHandle(m.receiptHandle()).build());
          }
          assertEquals(got.size(), sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(deletes)).successful().size());
        }
        if (fifo) {
          assertEquals(List.of("m-0", "m-1", "m-2", "m-3", "m-4", "m-5", "m-6", "m-7", "m-8", "m-9"), bodies,
              q + ": in order through a node that may not hold it");
        }
      }
      List<String> listed = sqs.listQueues(b -> b.queueNamePrefix("routed-")).queueUrls();
      assertEquals(queues.stream().map(entry::url).sorted().toList(), listed, "ListQueues sees every node's queues");
      assertThrows(QueueDoesNotExistException.class,
          () -> sqs.getQueueUrl(b -> b.queueName("routed-never-made")), "an error from the owner, as it is");
    }
    // Through another node, the same queues.
    try (SqsClient other = node(0).client()) {
      assertEquals(queues.size(), other.listQueues(b -> b.queueNamePrefix("routed-")).queueUrls().size());
      assertEquals(node(0).url(queues.get(3)), other.getQueueUrl(b -> b.queueName(queues.get(3))).queueUrl());
    }
  }

  @Test
  void aRedeliveryBackoffSetThroughOneNodeIsTheOwnersAndReadThroughAnother() throws Exception {
    String q = cluster.queueOwnedBy(node(1), "backoff-", "");
    try (SqsClient sqs = node(0).client()) {
      sqs.createQueue(b -> b.queueName(q));
    }
    String path = "/console/api/queues/000000000000/us-east-1/" + q + "/redelivery-backoff";
    RawHttp.Response set = ConsoleHttp.send(node(0).httpPort(), "PUT", path, "{\"baseSeconds\":5,\"maxSeconds\":300}",
        ConsoleHttp.CONSOLE, "Content-Type: application/json");
    assertEquals(200, set.status(), set.body());
    for (Node n : cluster.nodes) {
      assertEquals("{\"baseSeconds\":5,\"maxSeconds\":300}",
          ConsoleHttp.get(n.httpPort(), path, ConsoleHttp.CONSOLE).body(), n.name());
    }
    RawHttp.Response bad = ConsoleHttp.send(node(2).httpPort(), "PUT", path, "{\"baseSeconds\":5,\"maxSeconds\":1}",
        ConsoleHttp.CONSOLE, "Content-Type: application/json");
    assertEquals(400, bad.status(), "refused by the owner, answered as it is: " + bad.body());
    assertEquals(200, ConsoleHttp.send(node(2).httpPort(), "DELETE", path, null, ConsoleHttp.CONSOLE).status());
    assertEquals("{\"baseSeconds\":null,\"maxSeconds\":null}",
        ConsoleHttp.get(node(1).httpPort(), path, ConsoleHttp.CONSOLE).body());
  }

  @Test
  void aLongPollWaitsOnTheOwnerAndASendThroughAnyNodeWakesIt() throws Exception {
    Node owner = node(1);
    String queue = cluster.queueOwnedBy(owner, "poll-", "");
    try (SqsClient a = node(0).client(); SqsClient c = node(2).client()) {
      c.createQueue(b -> b.queueName(queue));
      long started = System.nanoTime();
      CompletableFuture<List<Message>> poll = CompletableFuture.supplyAsync(() -> a.receiveMessage(b -> b
          .queueUrl(node(0).url(queue)).waitTimeSeconds(10)).messages());
      Thread.sleep(1000);
      assertTrue(!poll.isDone(), "the long poll waits");
      c.sendMessage(b -> b.queueUrl(node(2).url(queue)).messageBody("wake up"));
      List<Message> got = poll.get(10, TimeUnit.SECONDS);
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      assertEquals(List.of("wake up"), got.stream().map(Message::body).toList());
      assertTrue(tookMillis < 5_000, "woken by the send, not by its wait's end: " + tookMillis + " ms");
    }
  }

  @Test
  void aClientThatLeavesALongPollAtItsNodeEndsItOnTheOwner() throws Exception {
    Node owner = node(0);
    String queue = cluster.queueOwnedBy(owner, "left-", "");
    Node entry = node(1);
    try (SqsClient sqs = owner.client()) {
      sqs.createQueue(b -> b.queueName(queue));
      byte[] body = ("{\"QueueUrl\":\"" + entry.url(queue) + "\",\"WaitTimeSeconds\":20}")
          .getBytes(StandardCharsets.UTF_8);
      try (Socket socket = new Socket("127.0.0.1", entry.httpPort())) {
        OutputStream out = socket.getOutputStream();
        out.write(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: AmazonSQS.ReceiveMessage\r\n"
            + "Content-Type: application/x-amz-json-1.0\r\nContent-Length: " + body.length + "\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
        out.write(body);
        out.flush();
        Thread.sleep(1000); // parked on the owner
      }
      Thread.sleep(500); // the cancel on its way
      sqs.sendMessage(b -> b.queueUrl(owner.url(queue)).messageBody("for the next receiver"));
      List<Message> got = sqs.receiveMessage(b -> b.queueUrl(owner.url(queue)).waitTimeSeconds(5)).messages();
      assertEquals(List.of("for the next receiver"), got.stream().map(Message::body).toList(),
          "the abandoned long poll took nothing");
    }
  }

  @Test
  void aDeadLetterMovesToItsQueueOnAnotherNodeOnceAndMoveTasksRedriveItAcrossNodes() throws Exception {
    String dlq = cluster.queueOwnedBy(node(1), "dlq-", "");
    String source = cluster.queueOwnedBy(node(0), "source-", "");
    Node entry = node(2);
    try (SqsClient sqs = entry.client()) {
      String dlqUrl = sqs.createQueue(b -> b.queueName(dlq)).queueUrl();
      String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
          .attributesAsStrings().get("QueueArn");
      // Checked against the dead-letter queue where it lives.
      String sourceUrl = sqs.createQueue(b -> b.queueName(source).attributesWithStrings(Map.of("RedrivePolicy",
          "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"1\"}"))).queueUrl();
      assertThrows(software.amazon.awssdk.services.sqs.model.SqsException.class, () -> sqs.createQueue(b -> b
          .queueName(source + "-bad").attributesWithStrings(Map.of("RedrivePolicy", "{\"deadLetterTargetArn\":\""
              + dlqArn + "-missing\",\"maxReceiveCount\":\"1\"}"))), "a target that does not exist is refused");
      sqs.sendMessage(b -> b.queueUrl(sourceUrl).messageBody("poison"));
      Thread.sleep(2500); // the shard managers' read of the cluster's queues (every other round)
      assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(sourceUrl).visibilityTimeout(0)).messages().size());
      // Received once already: the next receive moves it to the dead-letter queue instead.
      List<Message> again = sqs.receiveMessage(b -> b.queueUrl(sourceUrl).waitTimeSeconds(1)).messages();
      assertEquals(List.of(), again);
      List<Message> dead = sqs.receiveMessage(b -> b.queueUrl(dlqUrl).waitTimeSeconds(5)).messages();
      assertEquals(List.of("poison"), dead.stream().map(Message::body).toList(), "moved to the other node's queue");
      sqs.changeMessageVisibility(b -> b.queueUrl(dlqUrl).receiptHandle(dead.get(0).receiptHandle()).visibilityTimeout(0));
      assertEquals("0", sqs.getQueueAttributes(b -> b.queueUrl(sourceUrl).attributeNames(QueueAttributeName.ALL))
          .attributesAsStrings().get("ApproximateNumberOfMessages"));
      try (SqsClient other = node(0).client()) {
        assertEquals(List.of(node(0).url(source)), other.listDeadLetterSourceQueues(b -> b
            .queueUrl(node(0).url(dlq))).queueUrls(), "listed from any node");
      }
    }
    // In PostgreSQL, once: the row left the source in the write that stored it in the dead-letter queue.
    assertEquals(List.of(dlq), rowsOf(source, dlq));

    // Move tasks of the dead-letter queue (node 1), started through node 0: back to the source (node 0),
    // then to a destination on node 2, each message written once where it went.
    String destination = cluster.queueOwnedBy(node(2), "destination-", "");
    try (SqsClient sqs = node(0).client()) {
      String dlqArn = arnOf(sqs, node(0).url(dlq));
      assertEquals("ResourceNotFoundException", assertThrows(software.amazon.awssdk.services.sqs.model.SqsException.class,
          () -> sqs.startMessageMoveTask(b -> b.sourceArn(dlqArn).destinationArn(dlqArn.replace(dlq, destination))))
          .awsErrorDetails().errorCode(), "a destination that does not exist, asked of its node");
      sqs.startMessageMoveTask(b -> b.sourceArn(dlqArn));
      assertEquals("COMPLETED", awaitMoveTask(sqs, dlqArn), "back to its source, on another node");
      assertEquals(List.of("poison"), sqs.receiveMessage(b -> b.queueUrl(node(0).url(source)).waitTimeSeconds(5))
          .messages().stream().map(Message::body).toList());
      assertEquals(List.of(source), rowsOf(source, dlq));

      String destinationArn = arnOf(sqs, sqs.createQueue(b -> b.queueName(destination)).queueUrl());
      for (int i = 0; i < 3; i++) {
        int n = i;
        sqs.sendMessage(b -> b.queueUrl(node(0).url(dlq)).messageBody("moved " + n));
      }
      sqs.startMessageMoveTask(b -> b.sourceArn(dlqArn).destinationArn(destinationArn));
      assertEquals("COMPLETED", awaitMoveTask(sqs, dlqArn), "to a destination on a third node");
      List<String> moved = new ArrayList<>();
      for (int i = 0; i < 10 && moved.size() < 3; i++) {
        sqs.receiveMessage(b -> b.queueUrl(node(0).url(destination)).maxNumberOfMessages(10).waitTimeSeconds(1))
            .messages().forEach(m -> moved.add(m.body()));
      }
      assertEquals(List.of("moved 0", "moved 1", "moved 2"), moved.stream().sorted().toList());
      assertEquals(List.of(destination, destination, destination, source), rowsOf(source, dlq, destination));
    }
  }

  private static String arnOf(SqsClient sqs, String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributesAsStrings().get("QueueArn");
  }

  /** Waits for the move task of {@code dlqArn} to end; answers its status. */
  private static String awaitMoveTask(SqsClient sqs, String dlqArn) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      var task = sqs.listMessageMoveTasks(b -> b.sourceArn(dlqArn)).results().get(0);
      if (!task.status().equals("RUNNING")) {
        return task.status() + (task.failureReason() == null ? "" : " " + task.failureReason());
      }
      Thread.sleep(100);
    }
    return "RUNNING";
  }

  /** The queue of each message row of these queues in PostgreSQL, sorted. */
  private static List<String> rowsOf(String... queues) throws Exception {
    return cluster.rows("SELECT q.name FROM sluice_messages m JOIN sluice_queues q ON q.id = m.queue_id"
        + " WHERE q.name IN ('" + String.join("', '", queues) + "') ORDER BY q.name").stream()
        .map(r -> r.getString(0)).toList();
  }

  @Test
  void aPushSubscriberOnOneNodeGetsAQueueHeldByAnotherAndItsAckDeletesThere() throws Exception {
    Node owner = node(0);
    String queue = cluster.queueOwnedBy(owner, "push-", "");
    try (SqsClient sqs = owner.client(); BridgeClient c = BridgeClient.webSocket(node(2).httpPort(), "/eventbus")) {
      sqs.createQueue(b -> b.queueName(queue));
      io.vertx.core.json.JsonObject sub = PushIT.subscribe(c, node(2).url(queue), 5, 30);
      try (SqsClient other = node(1).client()) {
        other.sendMessage(b -> b.queueUrl(node(1).url(queue)).messageBody("pushed across"));
      }
      io.vertx.core.json.JsonObject m = c.pushed(sub.getString("address"), 10_000).getJsonObject("body");
      assertEquals("pushed across", m.getString("body"));
      PushIT.ok(c.request("sluice.ack", new io.vertx.core.json.JsonObject().put("subscription",
          sub.getString("subscription")).put("receiptHandle", m.getString("receiptHandle"))));
      Map<String, String> counts = sqs.getQueueAttributes(b -> b.queueUrl(owner.url(queue))
          .attributeNames(QueueAttributeName.ALL)).attributesAsStrings();
      assertEquals("0", counts.get("ApproximateNumberOfMessages"));
      assertEquals("0", counts.get("ApproximateNumberOfMessagesNotVisible"), "the ack deleted it on the owner");
    }
  }
}
