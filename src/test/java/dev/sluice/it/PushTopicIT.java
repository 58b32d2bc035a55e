package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;

/**
 * Push subscribers of topics through the SockJS bridge's WebSocket with a raw client, while an AWS
 * SDK {@code SnsClient} publishes: each publish arrives live, filtered by the subscription's
 * policy, within its credits, and the subscription ends with its socket or its topic.
 */
class PushTopicIT {
  static TestServer server;
  static SnsClient sns;

  @BeforeAll
  static void start() {
    server = TestServer.start();
    sns = SnsClient.builder().endpointOverride(server.endpoint).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    sns.close();
    server.close();
  }

  static BridgeClient ws() throws Exception {
    return BridgeClient.webSocket(server.sluice.port(), "/eventbus");
  }

  static JsonObject subscribe(BridgeClient c, JsonObject request) throws Exception {
    JsonObject sub = PushIT.ok(c.request("sluice.subscribe", request));
    c.register(sub.getString("address"));
    return sub;
  }

  static MessageAttributeValue number(int n) {
    return MessageAttributeValue.builder().dataType("Number").stringValue(Integer.toString(n)).build();
  }

  @Test
  void aPublishArrivesLiveFilteredByTheSubscriptionsPolicy() throws Exception {
    String topic = sns.createTopic(r -> r.name("live")).topicArn();
    try (BridgeClient all = ws(); BridgeClient big = ws()) {
      JsonObject everything = subscribe(all, new JsonObject().put("topicName", "live"));
      assertEquals(topic, everything.getString("topicArn"));
      JsonObject filtered = subscribe(big, new JsonObject().put("topicArn", topic)
          .put("filterPolicy", new JsonObject().put("amount", new io.vertx.core.json.JsonArray()
              .add(new JsonObject().put("numeric", new io.vertx.core.json.JsonArray().add(">=").add(100))))));
      String small = sns.publish(r -> r.topicArn(topic).subject("Order").message("small order")
          .messageAttributes(Map.of("amount", number(20)))).messageId();
      String large = sns.publish(r -> r.topicArn(topic).message("large order")
          .messageAttributes(Map.of("amount", number(250)))).messageId();

      JsonObject first = all.pushed(everything.getString("address"), 5000).getJsonObject("body");
      assertEquals("notification", first.getString("type"));
      assertEquals(everything.getString("subscription"), first.getString("subscription"));
      assertEquals(small, first.getString("messageId"));
      assertEquals(topic, first.getString("topicArn"));
      assertEquals("Order", first.getString("subject"));
      assertEquals("small order", first.getString("message"));
      assertTrue(first.getString("timestamp").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
      assertEquals(new JsonObject().put("dataType", "Number").put("stringValue", "20"),
          first.getJsonObject("messageAttributes").getJsonObject("amount"));
      assertEquals(large, all.pushed(everything.getString("address"), 5000).getJsonObject("body")
          .getString("messageId"));

      JsonObject onlyBig = big.pushed(filtered.getString("address"), 5000).getJsonObject("body");
      assertEquals(large, onlyBig.getString("messageId"));
      assertNull(big.pushed(filtered.getString("address"), 500), "the small order was filtered out");
      assertEquals(0, sns.listSubscriptionsByTopic(r -> r.topicArn(topic)).subscriptions().size(),
          "push subscribers are not listed: they live with their socket");
    }
  }

  @Test
  void creditsBoundWhatIsUnacknowledgedAndAnAckFreesOne() throws Exception {
    String topic = sns.createTopic(r -> r.name("credited")).topicArn();
    try (BridgeClient c = ws()) {
      JsonObject sub = subscribe(c, new JsonObject().put("topicArn", topic).put("prefetch", 2));
      String address = sub.getString("address");
      for (int i = 0; i < 4; i++) {
        int n = i;
        sns.publish(r -> r.topicArn(topic).message("m" + n));
      }
      JsonObject a = c.pushed(address, 5000).getJsonObject("body");
      JsonObject b = c.pushed(address, 5000).getJsonObject("body");
      assertEquals("m0", a.getString("message"));
      assertEquals("m1", b.getString("message"));
      assertNull(c.pushed(address, 500), "two credits: m2 and m3 were dropped");
      PushIT.ok(c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("messageId", a.getString("messageId"))));
      sns.publish(r -> r.topicArn(topic).message("m4"));
      JsonObject after = c.pushed(address, 5000).getJsonObject("body");
      assertEquals("m4", after.getString("message"));
      assertEquals(2, after.getLong("dropped"), "the subscriber learns what it missed");
      JsonObject again = c.request("sluice.ack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("messageId", a.getString("messageId")));
      assertEquals("err", again.getString("type"), "an ack is taken once: " + again);
      JsonObject nack = c.request("sluice.nack", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("receiptHandle", "x"));
      assertEquals("err", nack.getString("type"), "a topic's notification is not given back: " + nack);
      JsonObject credit = c.request("sluice.credit", new JsonObject().put("subscription", sub.getString("subscription"))
          .put("credits", 1));
      assertTrue(credit.getString("message").startsWith("InvalidParameterValueException: "), "auto only: " + credit);
    }
  }

  @Test
  void theSubscriptionEndsWithItsSocketOrItsTopic() throws Exception {
    String topic = sns.createTopic(r -> r.name("ending")).topicArn();
    BridgeClient c = ws();
    subscribe(c, new JsonObject().put("topicArn", topic));
    c.close();
    // The listener left with the socket: publishing finds nobody, and nothing fails.
    sns.publish(r -> r.topicArn(topic).message("to nobody"));
    try (BridgeClient d = ws()) {
      JsonObject sub = subscribe(d, new JsonObject().put("topicArn", topic));
      sns.deleteTopic(r -> r.topicArn(topic));
      JsonObject ended = d.pushed(sub.getString("address"), 5000);
      assertNotNull(ended, "the subscriber is told");
      assertEquals("error", ended.getJsonObject("body").getString("type"));
      assertEquals("NotFound", ended.getJsonObject("body").getString("code"));
    }
  }

  @Test
  void refusalsComeBackWithSnsCodes() throws Exception {
    try (BridgeClient c = ws()) {
      JsonObject missing = c.request("sluice.subscribe", new JsonObject().put("topicName", "never-made"));
      assertEquals("err", missing.getString("type"));
      assertTrue(missing.getString("message").startsWith("NotFound: "), missing.encode());
      sns.createTopic(r -> r.name("strict"));
      JsonObject badFilter = c.request("sluice.subscribe", new JsonObject().put("topicName", "strict")
          .put("filterPolicy", "{\"a\": 1}"));
      assertTrue(badFilter.getString("message").startsWith("InvalidParameter: "), badFilter.encode());
      sns.createTopic(r -> r.name("ordered.fifo").attributes(Map.of("FifoTopic", "true")));
      JsonObject fifo = c.request("sluice.subscribe", new JsonObject().put("topicName", "ordered.fifo"));
      assertTrue(fifo.getString("message").contains("FIFO topics deliver to SQS queues only"), fifo.encode());
      JsonObject demand = c.request("sluice.subscribe", new JsonObject().put("topicName", "strict")
          .put("credit", "demand"));
      assertTrue(demand.getString("message").startsWith("InvalidParameterValueException: "), demand.encode());
    }
  }
}
