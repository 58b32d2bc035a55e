package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;

/** The event-bus dispatcher serves the same scenarios as the default one, errors and long polls included. */
class EventBusDispatchIT {
  @Test
  void theCoreScenarioWorksOverTheEventBus() throws Exception {
    try (TestServer server = TestServer.start(Map.of("SLUICE_ENGINE_DISPATCH", "eventbus", "SLUICE_ENGINE_SHARDS", "3"));
        SqsClient sqs = server.client();
        SqsAsyncClient async = server.asyncClient(4)) {
      String url = sqs.createQueue(b -> b.queueName("over-the-bus")).queueUrl();
      CompletableFuture<ReceiveMessageResponse> parked = async.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(10));
      Thread.sleep(200);
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello"));
      Message m = parked.get(5, TimeUnit.SECONDS).messages().get(0);
      assertEquals("hello", m.body());
      sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
      for (String n : List.of("a", "b", "c", "d")) {
        sqs.createQueue(b -> b.queueName("bus-" + n));
      }
      assertEquals(4, sqs.listQueues(b -> b.queueNamePrefix("bus-")).queueUrls().size());
      assertThrows(QueueDoesNotExistException.class, () -> sqs.getQueueUrl(b -> b.queueName("absent")));
      assertTrue(sqs.receiveMessage(b -> b.queueUrl(url)).messages().isEmpty());
    }
  }
}
