package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Sluice;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sns.model.Subscription;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * SNS topics predefined in a configuration file exist after start with their attributes, tags and
 * subscriptions, filter policies included; a subscription the engine refuses stops the start
 * naming it.
 */
class PredefinedTopicsIT {
  static final String CONFIG = """
      queues:
        - name: billing
        - name: big-orders
      topics:
        - name: orders
          attributes: {DisplayName: Orders}
          tags: {team: payments}
          subscriptions:
            - queue: billing
            - queue: big-orders
              attributes: {RawMessageDelivery: true, FilterPolicy: {amount: [{numeric: [">=", 100]}]}}
        - name: ledger.fifo
          attributes: {FifoTopic: true, ContentBasedDeduplication: true}
      """;

  @TempDir Path dir;

  @Test
  void predefinedTopicsAndSubscriptionsExistAfterStart() throws Exception {
    Path conf = dir.resolve("sluice.yaml");
    Files.writeString(conf, CONFIG);
    try (TestServer s = TestServer.start(Map.of("SLUICE_CONFIG", conf.toString())); SqsClient sqs = s.client();
        SnsClient sns = SnsClient.builder().endpointOverride(s.endpoint).region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
            .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(30)))
            .httpClient(UrlConnectionHttpClient.builder().build()).build()) {
      String orders = "arn:aws:sns:us-east-1:000000000000:orders";
      assertEquals(List.of(orders, "arn:aws:sns:us-east-1:000000000000:ledger.fifo").stream().sorted().toList(),
          sns.listTopics().topics().stream().map(t -> t.topicArn()).toList());
      assertEquals("Orders", sns.getTopicAttributes(r -> r.topicArn(orders)).attributes().get("DisplayName"));
      assertEquals("payments", sns.listTagsForResource(r -> r.resourceArn(orders)).tags().get(0).value());
      List<Subscription> subs = sns.listSubscriptionsByTopic(r -> r.topicArn(orders)).subscriptions();
      assertEquals(2, subs.size());
      sns.publish(r -> r.topicArn(orders).message("small").messageAttributes(Map.of("amount",
          MessageAttributeValue.builder().dataType("Number").stringValue("5").build())));
      sns.publish(r -> r.topicArn(orders).message("large").messageAttributes(Map.of("amount",
          MessageAttributeValue.builder().dataType("Number").stringValue("500").build())));
      String big = sqs.getQueueUrl(r -> r.queueName("big-orders")).queueUrl();
      assertEquals(List.of("large"), sqs.receiveMessage(r -> r.queueUrl(big).maxNumberOfMessages(10)).messages()
          .stream().map(m -> m.body()).toList());
      String billing = sqs.getQueueUrl(r -> r.queueName("billing")).queueUrl();
      assertEquals(2, sqs.receiveMessage(r -> r.queueUrl(billing).maxNumberOfMessages(10)).messages().size());
    }
  }

  @Test
  void aSubscriptionTheEngineRefusesStopsTheStartNamingIt() {
    ConfigException e = assertThrows(ConfigException.class, () -> Sluice.start(ConfigLoader.load(new String[0],
        Map.of("SLUICE_HTTP_PORT", "0", "SLUICE_TOPICS",
            "[{\"name\": \"t\", \"subscriptions\": [{\"queue\": \"q\"}, {\"queue\": \"q.fifo\"}]}]")))
        .await(30, TimeUnit.SECONDS));
    assertTrue(e.getMessage().contains("'topics[0].subscriptions[1]' (topic t): InvalidParameter"), e.getMessage());
    ConfigException key = assertThrows(ConfigException.class, () -> ConfigLoader.load(new String[0],
        Map.of("SLUICE_TOPICS", "[{\"name\": \"t\", \"subscriptions\": [{\"queue\": \"q\", \"raw\": true}]}]")));
    assertTrue(key.getMessage().contains("'topics[0].subscriptions[0].raw'"), key.getMessage());
  }
}
