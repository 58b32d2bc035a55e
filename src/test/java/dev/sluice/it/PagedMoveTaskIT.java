package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;

/**
 * Move tasks over dead-letter queues held mostly in PostgreSQL (design page §2.13): with a head
 * window of 3, a redrive of thousands of messages waits for each page read instead of completing
 * once the few resident messages are moved.
 */
class PagedMoveTaskIT extends DurableServerIT {
  static final int MESSAGES = 3_000;

  @Test
  void aRedriveOfThousandsOfDurableOnlyMessagesMovesEachExactlyOnceAndThenCompletes() throws Exception {
    try (TestServer server = server(Map.of("SLUICE_PG_HEAD_WINDOW_MESSAGES", "3")); SqsClient sqs = server.client()) {
      String dlq = sqs.createQueue(b -> b.queueName("paged-dlq")).queueUrl();
      String dlqArn = arn(sqs, dlq);
      sqs.createQueue(b -> b.queueName("paged-src").attributesWithStrings(Map.of("RedrivePolicy",
          MessageMoveTaskIT.redrive(dlqArn, 1))));
      String destination = sqs.createQueue(b -> b.queueName("paged-dest")).queueUrl();
      String destinationArn = arn(sqs, destination);
      BacklogIT.send(server, dlq, 0, MESSAGES);
      BacklogIT.assertCounts(sqs, dlq, MESSAGES, 0);

      long start = System.nanoTime();
      sqs.startMessageMoveTask(b -> b.sourceArn(dlqArn).destinationArn(destinationArn));
      ListMessageMoveTasksResultEntry done = awaitEnd(sqs, dlqArn, 120_000);
      System.out.printf("PagedMoveTaskIT: %d messages moved in %d ms%n", MESSAGES,
          (System.nanoTime() - start) / 1_000_000);
      assertEquals("COMPLETED", done.status());
      assertEquals(MESSAGES, done.approximateNumberOfMessagesToMove());
      assertEquals(MESSAGES, done.approximateNumberOfMessagesMoved());
      BacklogIT.assertCounts(sqs, dlq, 0, 0);
      BacklogIT.assertCounts(sqs, destination, MESSAGES, 0);

      Map<String, Integer> received = new ConcurrentHashMap<>();
      BacklogIT.drain(server, destination, received, () -> received.size() >= MESSAGES);
      BacklogIT.assertExactlyOnce(received, MESSAGES);
      BacklogIT.assertCounts(sqs, destination, 0, 0);
      assertEquals(0, BacklogIT.duplicateRows(server));
    }
  }

  static String arn(SqsClient sqs, String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("QueueArn")).attributesAsStrings()
        .get("QueueArn");
  }

  /** The newest task of the source once it is no longer running; bounded. */
  static ListMessageMoveTasksResultEntry awaitEnd(SqsClient sqs, String sourceArn, long maxMillis) throws Exception {
    long deadline = System.currentTimeMillis() + maxMillis;
    ListMessageMoveTasksResultEntry last;
    do {
      Thread.sleep(50);
      last = sqs.listMessageMoveTasks(b -> b.sourceArn(sourceArn).maxResults(1)).results().get(0);
    } while (last.status().equals("RUNNING") && System.currentTimeMillis() < deadline);
    assertTrue(!last.status().equals("RUNNING"), "still running after " + maxMillis + " ms: " + last);
    return last;
  }
}
