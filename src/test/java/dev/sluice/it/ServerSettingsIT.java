package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.RequestThrottledException;

/** Settings a user changes: the public base URL, the memory budget and the parked-receive bound. */
class ServerSettingsIT {
  @Test
  void queueUrlsUseTheConfiguredPublicBaseUrl() throws Exception {
    try (TestServer server = TestServer.start(Map.of("SLUICE_HTTP_PUBLIC_BASE_URL", "https://sqs.example.internal:8443"));
        SqsClient sqs = server.client()) {
      String url = sqs.createQueue(b -> b.queueName("public")).queueUrl();
      assertEquals("https://sqs.example.internal:8443/000000000000/public", url);
      assertEquals(url, sqs.listQueues(b -> b.queueNamePrefix("pub")).queueUrls().get(0));
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("routed by the last path segments"));
      assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(url)).messages().size());
    }
  }

  @Test
  void pastTheMemoryBudgetSendsAreThrottledUntilMessagesAreDeleted() throws Exception {
    try (TestServer server = TestServer.start(Map.of("SLUICE_ENGINE_MEMORY_BUDGET_BYTES", "4096"));
        SqsClient sqs = server.client()) {
      String url = sqs.createQueue(b -> b.queueName("budget")).queueUrl();
      int sent = 0;
      RequestThrottledException refused = null;
      while (refused == null && sent < 100) {
        try {
          sqs.sendMessage(b -> b.queueUrl(url).messageBody("x".repeat(500)));
          sent++;
        } catch (RequestThrottledException e) {
          refused = e;
        }
      }
      assertTrue(sent > 0 && refused != null, "sent " + sent + " before the budget ran out");
      assertEquals("RequestThrottled", refused.awsErrorDetails().errorCode());
      assertTrue(refused.awsErrorDetails().errorMessage().contains("memory budget"));
      String handle = sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).receiptHandle();
      sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("fits again"));
    }
  }

  @Test
  void pastTheParkedReceiveBoundALongPollIsThrottled() throws Exception {
    try (TestServer server = TestServer.start(Map.of("SLUICE_ENGINE_MAX_PARKED_RECEIVES_PER_QUEUE", "1"));
        SqsClient sqs = server.client();
        SqsAsyncClient async = server.asyncClient(4)) {
      String url = sqs.createQueue(b -> b.queueName("bounded")).queueUrl();
      CompletableFuture<ReceiveMessageResponse> first = async.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(20));
      Thread.sleep(300);
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> async.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5)).get(10, TimeUnit.SECONDS));
      assertTrue(e.getCause() instanceof RequestThrottledException, e.getCause().toString());
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("for the first"));
      assertEquals(1, first.get(5, TimeUnit.SECONDS).messages().size());
    }
  }
}
