package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * engine.maxQueues: one server-wide count over every shard, predefined queues included, that
 * follows deletes and comes back with the queues recovered from PostgreSQL.
 */
class QueueLimitIT extends DurableServerIT {

  static void assertOverLimit(SqsClient sqs, String name) {
    SqsException e = assertThrows(SqsException.class, () -> sqs.createQueue(b -> b.queueName(name)));
    assertEquals(403, e.statusCode());
    assertEquals("OverLimit", e.awsErrorDetails().errorCode());
    assertEquals("You have reached the maximum number of queues (3) this server allows (engine.maxQueues).",
        e.awsErrorDetails().errorMessage());
  }

  @Test
  void createQueueIsOverLimitPastTheServerWideMaximum() throws Exception {
    try (TestServer s = TestServer.start(Map.of("SLUICE_ENGINE_MAX_QUEUES", "3", "SLUICE_ENGINE_SHARDS", "4",
            "SLUICE_QUEUES", "[{\"name\":\"limit-predefined\"}]"));
        SqsClient sqs = s.clientWithoutRetries()) {
      sqs.createQueue(b -> b.queueName("limit-a"));
      String b2 = sqs.createQueue(b -> b.queueName("limit-b")).queueUrl();
      assertOverLimit(sqs, "limit-c");
      assertOverLimit(sqs, "limit-d");
      assertEquals(b2, sqs.createQueue(b -> b.queueName("limit-b")).queueUrl(), "an existing queue is answered");
      sqs.deleteQueue(b -> b.queueUrl(b2));
      sqs.createQueue(b -> b.queueName("limit-c"));
      assertOverLimit(sqs, "limit-d");
    }
  }

  @Test
  void recoveredQueuesCount() throws Exception {
    try (TestServer s = server(); SqsClient sqs = s.clientWithoutRetries()) {
      for (String name : new String[] {"recovered-a", "recovered-b", "recovered-c"}) {
        sqs.createQueue(b -> b.queueName(name));
      }
    }
    try (TestServer s = server(Map.of("SLUICE_ENGINE_MAX_QUEUES", "3")); SqsClient sqs = s.clientWithoutRetries()) {
      assertOverLimit(sqs, "recovered-d");
      sqs.deleteQueue(b -> b.queueUrl(s.queueUrl("recovered-a")));
      sqs.createQueue(b -> b.queueName("recovered-d"));
    }
  }
}
