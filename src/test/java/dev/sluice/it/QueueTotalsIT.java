package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.engine.QueueSample;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * A queue's arrived, received and deleted totals on the real path (design/console.md §2.4): SQS
 * actions through the SDK, a topic's fan-out, and the console's sliced reading
 * ({@code QueueEngine.sampleQueues}) over every shard with its slices on real event-loop timers,
 * one queue per turn; it reads what the metrics' one-turn sample reads.
 */
class QueueTotalsIT {
  @Test
  void theTotalsFollowTheSqsActionsAndTheSlicedReadingFindsEveryQueue() throws Exception {
    try (TestServer s = TestServer.start(); SqsClient sqs = s.client(); SnsClient sns = sns(s)) {
      for (int i = 0; i < 40; i++) {
        int n = i;
        sqs.createQueue(b -> b.queueName("totals-idle-" + n));
      }
      sqs.createQueue(b -> b.queueName("totals-dlq"));
      String dlqArn = "arn:aws:sqs:us-east-1:000000000000:totals-dlq";
      String q = sqs.createQueue(b -> b.queueName("totals").attributes(Map.of(
          QueueAttributeName.REDRIVE_POLICY,
          "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"10\"}"))).queueUrl();
      String fifo = sqs.createQueue(b -> b.queueName("totals.fifo").attributes(Map.of(
          QueueAttributeName.FIFO_QUEUE, "true"))).queueUrl();

      for (int i = 0; i < 3; i++) {
        int n = i;
        sqs.sendMessage(b -> b.queueUrl(q).messageBody("m" + n));
      }
      sqs.sendMessageBatch(b -> b.queueUrl(q).entries(
          SendMessageBatchRequestEntry.builder().id("a").messageBody("batch a").build(),
          SendMessageBatchRequestEntry.builder().id("b").messageBody("batch b").build()));
      String topic = sns.createTopic(b -> b.name("totals-topic")).topicArn();
      sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint("arn:aws:sqs:us-east-1:000000000000:totals"));
      sns.publish(b -> b.topicArn(topic).message("fanned out"));
      List<Message> got = sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10).visibilityTimeout(60)
          .waitTimeSeconds(1)).messages();
      int received = got.size();
      received += sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(10).visibilityTimeout(60)
          .waitTimeSeconds(1)).messages().size();
      assertEquals(6, received, "three sends, two batch entries, one copy from the topic");
      sqs.deleteMessage(b -> b.queueUrl(q).receiptHandle(got.get(0).receiptHandle()));
      sqs.deleteMessage(b -> b.queueUrl(q).receiptHandle(got.get(0).receiptHandle())); // again: removes nothing
      sqs.deleteMessageBatch(b -> b.queueUrl(q).entries(
          DeleteMessageBatchRequestEntry.builder().id("1").receiptHandle(got.get(1).receiptHandle()).build(),
          DeleteMessageBatchRequestEntry.builder().id("2").receiptHandle(got.get(2).receiptHandle()).build()));
      for (int i = 0; i < 2; i++) { // the second is a duplicate: it stores nothing
        sqs.sendMessage(b -> b.queueUrl(fifo).messageBody("once").messageGroupId("g").messageDeduplicationId("d"));
      }

      List<QueueSample> sliced = s.sluice.engine().sampleQueues(1).await(10, TimeUnit.SECONDS);
      assertEquals(43, sliced.size(), "every queue, from every shard");
      Map<String, QueueSample> byName = sliced.stream()
          .collect(Collectors.toMap(x -> x.queue().name(), Function.identity()));
      QueueSample totals = byName.get("totals");
      assertEquals("6/6/3", totals.arrived() + "/" + totals.received() + "/" + totals.deleted());
      assertEquals("0/3/0", totals.visible() + "/" + totals.inflight() + "/" + totals.delayed());
      assertEquals(dlqArn, totals.deadLetterTargetArn());
      assertNull(byName.get("totals-dlq").deadLetterTargetArn());
      QueueSample once = byName.get("totals.fifo");
      assertEquals("1/0/0", once.arrived() + "/" + once.received() + "/" + once.deleted());
      QueueSample idle = byName.get("totals-idle-7");
      assertEquals("0/0/0", idle.arrived() + "/" + idle.received() + "/" + idle.deleted());

      // Nothing moved since: the metrics' one-turn sample reads the same (its ages aside).
      Map<String, QueueSample> oneTurn = s.sluice.engine().sample().await(10, TimeUnit.SECONDS).queues().stream()
          .collect(Collectors.toMap(x -> x.queue().name(), Function.identity()));
      assertEquals(withoutAges(byName), withoutAges(oneTurn));
    }
  }

  private static Map<String, String> withoutAges(Map<String, QueueSample> samples) {
    return samples.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> {
      QueueSample x = e.getValue();
      return x.generation() + " " + x.deadLetterTargetArn() + " " + x.visible() + "/" + x.inflight() + "/"
          + x.delayed() + " " + x.arrived() + "/" + x.received() + "/" + x.deleted();
    }));
  }

  private static SnsClient sns(TestServer s) {
    return SnsClient.builder().endpointOverride(s.endpoint).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(UrlConnectionHttpClient.builder().build())
        .build();
  }
}
