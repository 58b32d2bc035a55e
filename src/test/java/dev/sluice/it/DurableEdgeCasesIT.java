package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.ReceiptHandleIsInvalidException;

/**
 * Durable-mode cases found in review, each across a restart: per-group deduplication keys are
 * stored, keys and sequence numbers of a new run never repeat an old one's, a peek with
 * VisibilityTimeout 0 leaves nothing hidden, and a dead letter moved across queues is written once.
 */
class DurableEdgeCasesIT extends DurableServerIT {

  @Test
  void perGroupDeduplicationIsStoredAndTheWriterKeepsWriting() throws Exception {
    String url;
    String firstId;
    try (TestServer s = server(); SqsClient sqs = s.clientWithoutRetries()) {
      url = sqs.createQueue(b -> b.queueName("edge-hp.fifo").attributesWithStrings(Map.of("FifoQueue", "true",
          "DeduplicationScope", "messageGroup", "FifoThroughputLimit", "perMessageGroupId"))).queueUrl();
      firstId = sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageGroupId("g").messageDeduplicationId("d"))
          .messageId();
      String other = sqs.createQueue(b -> b.queueName("edge-after")).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(other).messageBody("still written")); // no 503: the writer is not stuck
    }
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      assertEquals(firstId, sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageGroupId("g")
          .messageDeduplicationId("d")).messageId(), "the per-group deduplication entry came back");
    }
  }

  @Test
  void anOldReceiptHandleCannotDeleteAMessageSentAfterARestart() throws Exception {
    String url;
    String oldHandle;
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      url = sqs.createQueue(b -> b.queueName("edge-keys")).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("old"));
      oldHandle = sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).receiptHandle();
      sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(oldHandle));
      Thread.sleep(200); // written behind
    }
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("new"));
      try {
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(oldHandle));
      } catch (ReceiptHandleIsInvalidException e) {
        // also acceptable: the handle names no live message
      }
      assertEquals(List.of("new"), sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(2)).messages().stream()
          .map(Message::body).toList(), "the new message was not deleted by the old handle");
    }
  }

  @Test
  void fifoSequenceNumbersKeepIncreasingAcrossAPurgeAndARestart() throws Exception {
    String url;
    String before;
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      url = sqs.createQueue(b -> b.queueName("edge-seq.fifo").attributesWithStrings(Map.of("FifoQueue", "true",
          "ContentBasedDeduplication", "true"))).queueUrl();
      before = sqs.sendMessage(b -> b.queueUrl(url).messageBody("s1").messageGroupId("g")).sequenceNumber();
      sqs.purgeQueue(b -> b.queueUrl(url));
    }
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      String after = sqs.sendMessage(b -> b.queueUrl(url).messageBody("s2").messageGroupId("g")).sequenceNumber();
      assertTrue(new BigInteger(after).compareTo(new BigInteger(before)) > 0, before + " then " + after);
    }
  }

  @Test
  void aPeekWithVisibilityZeroLeavesTheMessageVisibleAfterARestart() throws Exception {
    String url;
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      url = sqs.createQueue(b -> b.queueName("edge-peek")).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("p"));
      String h = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(3600)).messages().get(0).receiptHandle();
      sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(h).visibilityTimeout(0));
      assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0)).messages().size());
      Thread.sleep(200);
    }
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(1)).messages().size(),
          "visible, not hidden for the hour of the first receive");
    }
  }

  @Test
  void aDeadLetterIsInExactlyOneQueueAfterARestart() throws Exception {
    String source;
    String dlq;
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      dlq = sqs.createQueue(b -> b.queueName("edge-dlq")).queueUrl();
      String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlq).attributeNamesWithStrings("QueueArn"))
          .attributesAsStrings().get("QueueArn");
      source = sqs.createQueue(b -> b.queueName("edge-source").attributesWithStrings(Map.of("RedrivePolicy",
          "{\"maxReceiveCount\":\"1\",\"deadLetterTargetArn\":\"" + dlqArn + "\"}"))).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(source).messageBody("dead"));
      sqs.receiveMessage(b -> b.queueUrl(source).visibilityTimeout(0));
      assertEquals(0, sqs.receiveMessage(b -> b.queueUrl(source)).messages().size(), "moved on this receive");
      Thread.sleep(300);
    }
    try (TestServer s = server(); SqsClient sqs = s.client()) {
      assertEquals(0, sqs.receiveMessage(b -> b.queueUrl(source).waitTimeSeconds(1)).messages().size());
      assertEquals(List.of("dead"), sqs.receiveMessage(b -> b.queueUrl(dlq).waitTimeSeconds(1)).messages().stream()
          .map(Message::body).toList());
    }
  }

  @Test
  void aRetriedFifoSendIsNotAcknowledgedBeforeItsOriginalIsStored() throws Exception {
    try (TestServer s = server(Map.of("SLUICE_PG_SEND_TIMEOUT_MILLIS", "500")); SqsClient sqs = s.clientWithoutRetries()) {
      String url = sqs.createQueue(b -> b.queueName("edge-retry.fifo").attributesWithStrings(Map.of(
          "FifoQueue", "true"))).queueUrl();
      Thread.sleep(100);
      pg.stopNow();
      try {
        for (int attempt = 0; attempt < 2; attempt++) {
          // the SDK's own retry of a 503 resends with the same deduplication id
          software.amazon.awssdk.services.sqs.model.SqsException e = org.junit.jupiter.api.Assertions.assertThrows(
              software.amazon.awssdk.services.sqs.model.SqsException.class, () -> sqs.sendMessage(b -> b.queueUrl(url)
                  .messageBody("once").messageGroupId("g").messageDeduplicationId("same")));
          assertEquals(503, e.statusCode(), "attempt " + attempt + " is not acknowledged while nothing is stored");
        }
      } finally {
        pg.restart();
      }
      String id = null;
      long end = System.currentTimeMillis() + 20_000;
      while (id == null && System.currentTimeMillis() < end) {
        try {
          id = sqs.sendMessage(b -> b.queueUrl(url).messageBody("once").messageGroupId("g")
              .messageDeduplicationId("same")).messageId();
        } catch (software.amazon.awssdk.services.sqs.model.SqsException e) {
          Thread.sleep(200);
        }
      }
      assertTrue(id != null, "acknowledged once PostgreSQL is back");
      List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(2)).messages();
      assertEquals(1, got.size(), "stored once");
      assertEquals(id, got.get(0).messageId());
    }
  }
}
