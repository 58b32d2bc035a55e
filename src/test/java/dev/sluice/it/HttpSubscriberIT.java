package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.sns.util.SignatureChecker;
import dev.sluice.model.JsonText;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.AuthorizationErrorException;
import software.amazon.awssdk.services.sns.model.InvalidParameterException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * HTTP subscribers of a topic, through real clients against the packaged jar with authentication
 * on: a small Vert.x server in the test is the endpoint. It is sent a SubscriptionConfirmation,
 * confirms by following its SubscribeURL unsigned, and then receives notifications whose signatures
 * the AWS SDK's {@code SignatureChecker} verifies against the certificate Sluice serves; an
 * endpoint that fails is retried at its delivery policy's delays; one that never answers, or
 * refuses, ends in the subscription's dead-letter queue; a slow endpoint delays neither a publish's
 * answer nor another endpoint's notification; unsigned links may do nothing else.
 */
class HttpSubscriberIT {
  static final String A = "111111111111";
  static PackagedServer server;
  static SnsClient sns;
  static SqsClient sqs;
  static Vertx vertx;
  static HttpServer endpoint;
  static int port;
  /** What each path of the endpoint received: headers (lower-case names) and body, with the time it arrived. */
  static final Map<String, BlockingQueue<Received>> received = new ConcurrentHashMap<>();
  static final AtomicInteger flakyFailures = new AtomicInteger(2);
  static final HttpClient http = HttpClient.newHttpClient();

  record Received(Map<String, String> headers, String body, long atNanos) {
    Map<String, Object> json() {
      return JsonText.parseObject(body);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    endpoint = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      Map<String, String> headers = new java.util.HashMap<>();
      req.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
      received.computeIfAbsent(req.path(), p -> new LinkedBlockingQueue<>())
          .add(new Received(headers, body.toString(), System.nanoTime()));
      if ("SubscriptionConfirmation".equals(headers.get("x-amz-sns-message-type"))) {
        req.response().end(); // every path takes its confirmation; each fails its notifications its own way
        return;
      }
      switch (req.path()) {
        case "/hang" -> { } // never answers
        case "/refuse" -> req.response().setStatusCode(403).end();
        case "/flaky" -> req.response().setStatusCode(flakyFailures.getAndDecrement() > 0 ? 500 : 200).end();
        default -> req.response().end("ok");
      }
    })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    port = endpoint.actualPort();
    server = PackagedServer.start("http-subscriber-", Map.of("SLUICE_MANAGEMENT_TOKEN", "off",
        "SLUICE_OUTBOUND_REQUEST_TIMEOUT_MILLIS", "1000",
        // With credentials, subscribers on private addresses are refused unless allowed: the endpoint is on 127.0.0.1.
        "SLUICE_OUTBOUND_ALLOW_PRIVATE_ADDRESSES", "true",
        "SLUICE_CREDENTIALS", "[" + PermissionsIT.key("AKIDTEAMA", "team-a-secret", A, null) + "]"));
    sns = server.sns("AKIDTEAMA", "team-a-secret", Region.US_EAST_1);
    sqs = server.sqs("AKIDTEAMA", "team-a-secret");
  }

  @AfterAll
  static void stop() throws Exception {
    sns.close();
    sqs.close();
    server.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  static Received next(String path, long seconds) throws InterruptedException {
    return received.computeIfAbsent(path, p -> new LinkedBlockingQueue<>()).poll(seconds, TimeUnit.SECONDS);
  }

  static HttpResponse<String> get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  static PublicKey certificateKey(String certUrl) throws Exception {
    HttpResponse<byte[]> pem = http.send(HttpRequest.newBuilder(URI.create(certUrl)).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, pem.statusCode());
    return CertificateFactory.getInstance("X.509").generateCertificate(new java.io.ByteArrayInputStream(pem.body()))
        .getPublicKey();
  }

  /** Subscribes {@code path} and confirms it with the token of the confirmation it is sent (a signed ConfirmSubscription). */
  static String subscribeConfirmed(String topic, String path, Map<String, String> attributes) throws Exception {
    sns.subscribe(r -> r.topicArn(topic).protocol("http").endpoint(url(path)).attributes(attributes));
    Received confirmation = next(path, 10);
    assertEquals("SubscriptionConfirmation", confirmation.headers().get("x-amz-sns-message-type"));
    return sns.confirmSubscription(r -> r.topicArn(topic).token((String) confirmation.json().get("Token")))
        .subscriptionArn();
  }

  @Test
  void anEndpointConfirmsThroughItsSubscribeUrlAndReceivesSignedNotifications() throws Exception {
    String topic = sns.createTopic(r -> r.name("web-hooks")).topicArn();
    assertEquals("pending confirmation", sns.subscribe(r -> r.topicArn(topic).protocol("http")
        .endpoint(url("/hook"))).subscriptionArn());
    Received c = next("/hook", 10);
    Map<String, Object> confirmation = c.json();
    assertEquals(List.of("Type", "MessageId", "Token", "TopicArn", "Message", "SubscribeURL", "Timestamp",
        "SignatureVersion", "Signature", "SigningCertURL"), new ArrayList<>(confirmation.keySet()));
    assertEquals("SubscriptionConfirmation", c.headers().get("x-amz-sns-message-type"));
    assertEquals(topic, c.headers().get("x-amz-sns-topic-arn"));
    assertEquals("Amazon Simple Notification Service Agent", c.headers().get("user-agent"));
    assertEquals("text/plain; charset=UTF-8", c.headers().get("content-type"));
    PublicKey key = certificateKey((String) confirmation.get("SigningCertURL"));
    SignatureChecker checker = new SignatureChecker();
    assertTrue(checker.verifyMessageSignature(c.body(), key), "the confirmation verifies: " + c.body());
    assertEquals("PendingConfirmation", sns.listSubscriptionsByTopic(r -> r.topicArn(topic)).subscriptions().get(0)
        .subscriptionArn());

    sns.publish(r -> r.topicArn(topic).message("before confirmation"));
    assertNull(next("/hook", 1), "a subscription waiting for confirmation receives nothing");

    // The SubscribeURL, followed as a browser or an SNS library follows it: unsigned, while authentication is on.
    HttpResponse<String> confirmed = get((String) confirmation.get("SubscribeURL"));
    assertEquals(200, confirmed.statusCode(), confirmed.body());
    String arn = confirmed.body().replaceAll("(?s).*<SubscriptionArn>(.*)</SubscriptionArn>.*", "$1");
    assertTrue(arn.startsWith(topic + ":"), confirmed.body());
    Map<String, String> attributes = sns.getSubscriptionAttributes(r -> r.subscriptionArn(arn)).attributes();
    assertEquals("false", attributes.get("PendingConfirmation"));
    assertEquals("false", attributes.get("ConfirmationWasAuthenticated"));
    assertTrue(attributes.get("EffectiveDeliveryPolicy").contains("\"numRetries\":3"), attributes.toString());

    sns.publish(r -> r.topicArn(topic).subject("Hello").message("{\"n\": 1}").messageAttributes(Map.of("kind",
        software.amazon.awssdk.services.sns.model.MessageAttributeValue.builder().dataType("String")
            .stringValue("greeting").build())));
    Received n = next("/hook", 10);
    assertEquals("Notification", n.headers().get("x-amz-sns-message-type"));
    assertEquals(arn, n.headers().get("x-amz-sns-subscription-arn"));
    Map<String, Object> envelope = n.json();
    assertEquals(n.headers().get("x-amz-sns-message-id"), envelope.get("MessageId"));
    assertEquals("Hello", envelope.get("Subject"));
    assertEquals("{\"n\": 1}", envelope.get("Message"));
    assertTrue(checker.verifyMessageSignature(n.body(), key), "the notification verifies: " + n.body());
    assertFalse(checker.verifyMessageSignature(n.body().replace("Hello", "Hellp"), key), "a changed subject fails");

    sns.setTopicAttributes(r -> r.topicArn(topic).attributeName("SignatureVersion").attributeValue("2"));
    sns.publish(r -> r.topicArn(topic).message("version two"));
    Received v2 = next("/hook", 10);
    assertEquals("2", v2.json().get("SignatureVersion"));
    assertTrue(checker.verifyMessageSignature(v2.body(), key));

    sns.setSubscriptionAttributes(r -> r.subscriptionArn(arn).attributeName("RawMessageDelivery").attributeValue("true"));
    sns.publish(r -> r.topicArn(topic).message("raw body"));
    Received raw = next("/hook", 10);
    assertEquals("raw body", raw.body());
    assertEquals("true", raw.headers().get("x-amz-sns-rawdelivery"));

    // An unsigned link may do only what it is for.
    HttpResponse<String> other = get(server.endpoint + "/?Action=DeleteTopic&TopicArn=" + topic);
    assertEquals(403, other.statusCode(), other.body());
    HttpResponse<String> twoActions = get(server.endpoint + "/?Action=Unsubscribe&Action=DeleteTopic&SubscriptionArn="
        + arn);
    assertEquals(403, twoActions.statusCode(), twoActions.body());
    assertEquals(1, sns.listTopics().topics().stream().filter(t -> t.topicArn().equals(topic)).count());

    // The UnsubscribeURL a notification carries ends it, unsigned, as at AWS.
    HttpResponse<String> unsubscribed = get((String) envelope.get("UnsubscribeURL"));
    assertEquals(200, unsubscribed.statusCode(), unsubscribed.body());
    assertTrue(sns.listSubscriptionsByTopic(r -> r.topicArn(topic)).subscriptions().isEmpty());
  }

  @Test
  void aQueueSubscriptionNeedsASignedUnsubscribeAndATokenConfirmsNothingElse() throws Exception {
    String topic = sns.createTopic(r -> r.name("queues-only")).topicArn();
    sqs.createQueue(r -> r.queueName("kept"));
    String arn = sns.subscribe(r -> r.topicArn(topic).protocol("sqs").endpoint("arn:aws:sqs:us-east-1:" + A + ":kept"))
        .subscriptionArn();
    HttpResponse<String> refused = get(server.endpoint + "/?Action=Unsubscribe&SubscriptionArn=" + arn);
    assertEquals(403, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("AuthorizationError"), refused.body());
    assertEquals(1, sns.listSubscriptionsByTopic(r -> r.topicArn(topic)).subscriptions().size());
    HttpResponse<String> guessed = get(server.endpoint + "/?Action=ConfirmSubscription&TopicArn=" + topic + "&Token="
        + "ab".repeat(64));
    assertEquals(400, guessed.statusCode());
    assertTrue(guessed.body().contains("Invalid parameter: Token"), guessed.body());
  }

  @Test
  void aFailingEndpointIsRetriedAtItsPolicysDelays() throws Exception {
    String topic = sns.createTopic(r -> r.name("flaky-hooks")).topicArn();
    subscribeConfirmed(topic, "/flaky", Map.of("DeliveryPolicy", "{\"healthyRetryPolicy\": {\"numRetries\": 3,"
        + " \"minDelayTarget\": 1, \"maxDelayTarget\": 1}}"));
    String messageId = sns.publish(r -> r.topicArn(topic).message("try again")).messageId();
    Received first = next("/flaky", 10);
    Received second = next("/flaky", 10);
    Received third = next("/flaky", 10);
    for (Received r : List.of(first, second, third)) {
      assertEquals(messageId, r.json().get("MessageId"), r.headers() + " " + r.body());
    }
    double gap1 = (second.atNanos() - first.atNanos()) / 1e9;
    double gap2 = (third.atNanos() - second.atNanos()) / 1e9;
    assertTrue(gap1 >= 0.85 && gap1 < 3, "one second apart, jittered: " + gap1);
    assertTrue(gap2 >= 0.85 && gap2 < 3, "one second apart, jittered: " + gap2);
    assertNull(next("/flaky", 1), "delivered on the third attempt: no fourth");
  }

  @Test
  void anEndpointThatNeverAnswersOrRefusesEndsInTheDeadLetterQueueAndDelaysNoOne() throws Exception {
    String topic = sns.createTopic(r -> r.name("dead-hooks")).topicArn();
    String dlq = sqs.createQueue(r -> r.queueName("hooks-dlq")).queueUrl();
    String redrive = "{\"deadLetterTargetArn\": \"arn:aws:sqs:us-east-1:" + A + ":hooks-dlq\"}";
    String policy = "{\"healthyRetryPolicy\": {\"numRetries\": 1, \"numNoDelayRetries\": 1}}";
    subscribeConfirmed(topic, "/hang", Map.of("RedrivePolicy", redrive, "DeliveryPolicy", policy));
    subscribeConfirmed(topic, "/refuse", Map.of("RedrivePolicy", redrive, "DeliveryPolicy", policy));
    subscribeConfirmed(topic, "/fast", Map.of());

    long start = System.nanoTime();
    String messageId = sns.publish(r -> r.topicArn(topic).message("nobody home")).messageId();
    long answeredMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(answeredMillis < 900, "the publish is answered without waiting for endpoints: " + answeredMillis);
    Received fast = next("/fast", 5);
    assertEquals(messageId, fast.json().get("MessageId"));
    assertTrue((fast.atNanos() - start) / 1_000_000 < 900, "a hanging endpoint does not delay another's delivery");

    List<Message> dead = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (dead.size() < 2 && System.nanoTime() < deadline) {
      dead.addAll(sqs.receiveMessage(r -> r.queueUrl(dlq).waitTimeSeconds(2).maxNumberOfMessages(10)
          .messageAttributeNames("All")).messages());
    }
    assertEquals(2, dead.size(), "the hanging and the refusing endpoint's notification");
    for (Message m : dead) {
      assertEquals(messageId, JsonText.parseObject(m.body()).get("MessageId"));
      assertTrue(m.messageAttributes().containsKey("RequestID"), m.messageAttributes().toString());
      assertTrue(m.messageAttributes().containsKey("ErrorMessage"), m.messageAttributes().toString());
    }
    assertEquals(List.of("ClientError", "EndpointUnavailable"), dead.stream()
        .map(m -> m.messageAttributes().get("ErrorCode").stringValue()).sorted().toList());
    assertEquals(2, received.get("/hang").size(), "the first attempt and one retry");
    assertEquals(1, received.get("/refuse").size(), "a 4xx answer is not retried");
  }

  @Test
  void badSubscriptionsGetSnsErrors() {
    String topic = sns.createTopic(r -> r.name("checked-hooks")).topicArn();
    InvalidParameterException scheme = assertThrows(InvalidParameterException.class, () -> sns.subscribe(r -> r
        .topicArn(topic).protocol("http").endpoint("https://example.com/hook")));
    assertEquals("Invalid parameter: Endpoint must match the specified protocol", scheme.awsErrorDetails().errorMessage());
    InvalidParameterException policy = assertThrows(InvalidParameterException.class, () -> sns.subscribe(r -> r
        .topicArn(topic).protocol("http").endpoint(url("/never")).attributes(Map.of("DeliveryPolicy",
            "{\"healthyRetryPolicy\": {\"numRetries\": 200}}"))));
    assertEquals("Invalid parameter: Attributes Reason: DeliveryPolicy: numRetries must be an integer from 0 to 100",
        policy.awsErrorDetails().errorMessage());
    String fifo = sns.createTopic(r -> r.name("hooks.fifo").attributes(Map.of("FifoTopic", "true"))).topicArn();
    assertThrows(InvalidParameterException.class, () -> sns.subscribe(r -> r.topicArn(fifo).protocol("https")
        .endpoint("https://example.com/hook")));
    assertThrows(AuthorizationErrorException.class, () -> sns.subscribe(r -> r
        .topicArn("arn:aws:sns:us-east-1:222222222222:theirs").protocol("http").endpoint(url("/x"))));
  }
}
