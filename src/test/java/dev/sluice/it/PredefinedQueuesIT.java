package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Sluice;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Queues predefined in a configuration file exist after start, with their attributes, tags and
 * dead-letter queues; a definition the engine refuses, or a bad key, stops the start naming it.
 */
class PredefinedQueuesIT {
  static final String QUEUES = """
      queues:
        - name: orders.fifo
          attributes: {FifoQueue: true, ContentBasedDeduplication: true, VisibilityTimeout: 45}
          tags: {team: payments}
          deadLetterQueue: orders-dlq.fifo
          maxReceiveCount: 3
        - name: orders-dlq.fifo
          attributes: {FifoQueue: true, MessageRetentionPeriod: 1209600}
        - name: jobs
          attributes: {DelaySeconds: 5}
      """;

  @TempDir Path dir;

  @Test
  void predefinedQueuesExistAfterStart() throws Exception {
    Path conf = dir.resolve("sluice.yaml");
    Files.writeString(conf, QUEUES);
    try (TestServer s = TestServer.start(Map.of("SLUICE_CONFIG", conf.toString())); SqsClient sqs = s.client()) {
      List<String> urls = sqs.listQueues().queueUrls();
      assertEquals(3, urls.size(), urls.toString());
      String orders = sqs.getQueueUrl(b -> b.queueName("orders.fifo")).queueUrl();
      Map<String, String> attrs = sqs.getQueueAttributes(b -> b.queueUrl(orders)
          .attributeNames(QueueAttributeName.ALL)).attributesAsStrings();
      assertEquals("true", attrs.get("FifoQueue"));
      assertEquals("true", attrs.get("ContentBasedDeduplication"));
      assertEquals("45", attrs.get("VisibilityTimeout"));
      assertEquals("{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:orders-dlq.fifo\","
          + "\"maxReceiveCount\":3}", attrs.get("RedrivePolicy"));
      assertEquals(Map.of("team", "payments"), sqs.listQueueTags(b -> b.queueUrl(orders)).tags());
      String dlq = sqs.getQueueUrl(b -> b.queueName("orders-dlq.fifo")).queueUrl();
      assertEquals("1209600", sqs.getQueueAttributes(b -> b.queueUrl(dlq)
          .attributeNames(QueueAttributeName.MESSAGE_RETENTION_PERIOD)).attributesAsStrings().get("MessageRetentionPeriod"));
      assertEquals(List.of(orders), sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq)).queueUrls());
      String jobs = sqs.getQueueUrl(b -> b.queueName("jobs")).queueUrl();
      assertEquals("5", sqs.getQueueAttributes(b -> b.queueUrl(jobs).attributeNames(QueueAttributeName.DELAY_SECONDS))
          .attributesAsStrings().get("DelaySeconds"));
    }
  }

  @Test
  void aDefinitionTheEngineRefusesStopsTheStartNamingIt() {
    Map<String, String> env = Map.of("SLUICE_HTTP_PORT", "0", "SLUICE_QUEUES",
        "[{\"name\": \"ok\"}, {\"name\": \"slow\", \"attributes\": {\"VisibilityTimeout\": \"99999\"}}]");
    ConfigException e = assertThrows(ConfigException.class,
        () -> Sluice.start(ConfigLoader.load(new String[0], env)).await(30, TimeUnit.SECONDS));
    assertTrue(e.getMessage().contains("'queues[1]'") && e.getMessage().contains("VisibilityTimeout"), e.getMessage());
    ConfigException dlq = assertThrows(ConfigException.class, () -> Sluice.start(ConfigLoader.load(new String[0],
        Map.of("SLUICE_HTTP_PORT", "0", "SLUICE_QUEUES", "[{name: a, deadLetterQueue: nowhere, maxReceiveCount: 2}]")))
        .await(30, TimeUnit.SECONDS));
    assertTrue(dlq.getMessage().contains("'queues[0].deadLetterQueue'"), dlq.getMessage());
  }

  @Test
  void theJarExitsWithCode2NamingABadKey() throws Exception {
    Path conf = dir.resolve("bad.yaml");
    Files.writeString(conf, "queues:\n  - name: a\n    visibility: 30\n");
    Process p = ServerJar.process(Map.of(), "--config", conf.toString()).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(2, p.exitValue(), out);
    assertTrue(out.contains("'queues[0].visibility'"), out);
  }
}
