package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.model.JsonText;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.Tag;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Topics with PostgreSQL, the packaged jar as a child process on a PostgreSQL of the test's own: a
 * restart keeps topics, their attributes and tags, subscriptions with their filter policies, and the
 * signing key; and under {@code kill -9} in the middle of a stream of publishes, every acknowledged
 * publish is in every subscribed queue after the restart.
 */
@NeedsTools(Tool.POSTGRESQL)
class TopicDurableIT {
  static final String ACCOUNT = "000000000000";
  static ThrowawayPostgres pg;

  @BeforeAll
  static void start() throws Exception {
    pg = ThrowawayPostgres.start();
  }

  @AfterAll
  static void stop() throws Exception {
    pg.close();
  }

  static Process server(int port, Path log) throws Exception {
    // A short database lease: a restart after kill -9 waits out one lease before it serves.
    Process p = ServerJar.logging(log, Map.of("SLUICE_HTTP_PORT", Integer.toString(port), "SLUICE_STORAGE", "postgres",
        "SLUICE_PG_URL", pg.url(), "SLUICE_PG_LEASE_MILLIS", "2000")).start();
    QuickstartIT.awaitPort(port, p);
    return p;
  }

  static void stopGracefully(Process p) throws Exception {
    p.destroy();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "stopped");
  }

  static SnsClient sns(int port) {
    return SnsClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port)).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD).apiCallTimeout(Duration.ofSeconds(10)))
        .httpClient(UrlConnectionHttpClient.builder().build()).build();
  }

  static SqsClient sqs(int port) {
    return SqsClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port)).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(UrlConnectionHttpClient.builder().build()).build();
  }

  static String queueArn(String name) {
    return "arn:aws:sqs:us-east-1:" + ACCOUNT + ":" + name;
  }

  /** Every message the queue holds now, received and deleted. */
  static List<Message> drain(SqsClient sqs, String url) {
    List<Message> all = new ArrayList<>();
    while (true) {
      List<Message> got = sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages();
      if (got.isEmpty()) {
        return all;
      }
      all.addAll(got);
      got.forEach(m -> sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(m.receiptHandle())));
    }
  }

  /** The bodies of every message the queue holds now, each received once (kept invisible, not deleted). */
  static Set<String> bodies(SqsClient sqs, String url) {
    Set<String> all = new HashSet<>();
    while (true) {
      List<Message> got = sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(300))
          .messages();
      if (got.isEmpty()) {
        return all;
      }
      got.forEach(m -> all.add(m.body()));
    }
  }

  @Test
  void aRestartKeepsTopicsSubscriptionsAndTheSigningKey() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("topic-durable-");
    Process first = server(port, log);
    String topic;
    String fifoTopic;
    String filtered;
    String certUrl;
    String hook;
    String hookToken;
    String waiting;
    // An HTTP endpoint that takes the confirmation it is sent, and one nobody listens on.
    java.util.concurrent.BlockingQueue<String> confirmations = new java.util.concurrent.LinkedBlockingQueue<>();
    com.sun.net.httpserver.HttpServer endpoint =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    endpoint.createContext("/", exchange -> {
      confirmations.add(new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    endpoint.start();
    try (SnsClient sns = sns(port); SqsClient sqs = sqs(port)) {
      topic = sns.createTopic(r -> r.name("kept").attributes(Map.of("DisplayName", "Kept"))
          .tags(Tag.builder().key("team").value("ops").build())).topicArn();
      sns.setTopicAttributes(r -> r.topicArn(topic).attributeName("SignatureVersion").attributeValue("2"));
      fifoTopic = sns.createTopic(r -> r.name("kept.fifo").attributes(Map.of("FifoTopic", "true",
          "ContentBasedDeduplication", "true"))).topicArn();
      sqs.createQueue(r -> r.queueName("kept-all"));
      sqs.createQueue(r -> r.queueName("kept-big"));
      sns.subscribe(r -> r.topicArn(topic).protocol("sqs").endpoint(queueArn("kept-all")));
      filtered = sns.subscribe(r -> r.topicArn(topic).protocol("sqs").endpoint(queueArn("kept-big"))
          .attributes(Map.of("RawMessageDelivery", "true", "FilterPolicy", "{\"size\":[\"big\"]}"))).subscriptionArn();
      String gone = sns.createTopic(r -> r.name("gone")).topicArn();
      sns.deleteTopic(r -> r.topicArn(gone));
      sns.publish(r -> r.topicArn(topic).message("before"));
      certUrl = (String) JsonText.parseObject(drain(sqs, sqs.getQueueUrl(r -> r.queueName("kept-all")).queueUrl())
          .get(0).body()).get("SigningCertURL");
      sns.subscribe(r -> r.topicArn(topic).protocol("http")
          .endpoint("http://127.0.0.1:" + endpoint.getAddress().getPort() + "/hook"));
      hookToken = (String) JsonText.parseObject(confirmations.poll(10, java.util.concurrent.TimeUnit.SECONDS))
          .get("Token");
      hook = sns.confirmSubscription(r -> r.topicArn(topic).token(hookToken).authenticateOnUnsubscribe("true"))
          .subscriptionArn();
      waiting = sns.subscribe(r -> r.topicArn(topic).protocol("http").endpoint("http://127.0.0.1:9/nobody")
          .returnSubscriptionArn(true)).subscriptionArn();
    } finally {
      endpoint.stop(0);
    }
    stopGracefully(first);

    Process second = server(port, log);
    try (SnsClient sns = sns(port); SqsClient sqs = sqs(port)) {
      Set<String> topics = new HashSet<>();
      sns.listTopicsPaginator().topics().stream().map(t -> t.topicArn()).filter(a -> a.contains(":kept"))
          .forEach(topics::add);
      assertEquals(Set.of(topic, fifoTopic), topics, "kept, and gone stays gone");
      assertTrue(sns.listTopics().topics().stream().noneMatch(t -> t.topicArn().endsWith(":gone")));
      Map<String, String> attrs = sns.getTopicAttributes(r -> r.topicArn(topic)).attributes();
      assertEquals("Kept", attrs.get("DisplayName"));
      assertEquals("2", attrs.get("SignatureVersion"));
      assertEquals("3", attrs.get("SubscriptionsConfirmed"));
      assertEquals("1", attrs.get("SubscriptionsPending"));
      Map<String, String> confirmed = sns.getSubscriptionAttributes(r -> r.subscriptionArn(hook)).attributes();
      assertEquals("false", confirmed.get("PendingConfirmation"));
      assertEquals("true", confirmed.get("ConfirmationWasAuthenticated"));
      assertEquals("true", sns.getSubscriptionAttributes(r -> r.subscriptionArn(waiting)).attributes()
          .get("PendingConfirmation"));
      assertEquals(hook, sns.confirmSubscription(r -> r.topicArn(topic).token(hookToken)).subscriptionArn(),
          "the token is kept: confirming again answers the same subscription");
      assertEquals("true", sns.getTopicAttributes(r -> r.topicArn(fifoTopic)).attributes()
          .get("ContentBasedDeduplication"));
      assertEquals("ops", sns.listTagsForResource(r -> r.resourceArn(topic)).tags().get(0).value());
      Map<String, String> sub = sns.getSubscriptionAttributes(r -> r.subscriptionArn(filtered)).attributes();
      assertEquals("true", sub.get("RawMessageDelivery"));
      assertEquals("{\"size\":[\"big\"]}", sub.get("FilterPolicy"));

      sns.publish(r -> r.topicArn(topic).message("small one").messageAttributes(Map.of("size",
          software.amazon.awssdk.services.sns.model.MessageAttributeValue.builder().dataType("String")
              .stringValue("small").build())));
      sns.publish(r -> r.topicArn(topic).message("big one").messageAttributes(Map.of("size",
          software.amazon.awssdk.services.sns.model.MessageAttributeValue.builder().dataType("String")
              .stringValue("big").build())));
      List<Message> all = drain(sqs, sqs.getQueueUrl(r -> r.queueName("kept-all")).queueUrl());
      assertEquals(2, all.size());
      Map<String, Object> env = JsonText.parseObject(all.get(0).body());
      assertEquals(certUrl, env.get("SigningCertURL"), "the same key and certificate after a restart");
      assertEquals("2", env.get("SignatureVersion"));
      assertEquals(List.of("big one"), drain(sqs, sqs.getQueueUrl(r -> r.queueName("kept-big")).queueUrl()).stream()
          .map(Message::body).toList());
      sns.unsubscribe(r -> r.subscriptionArn(filtered));
      sns.deleteTopic(r -> r.topicArn(fifoTopic));
    }
    stopGracefully(second);

    Process third = server(port, log);
    try (SnsClient sns = sns(port)) {
      assertEquals(List.of(topic), sns.listTopics().topics().stream().map(t -> t.topicArn())
          .filter(a -> a.contains(":kept")).toList());
      assertEquals("2", sns.getTopicAttributes(r -> r.topicArn(topic)).attributes().get("SubscriptionsConfirmed"));
    } finally {
      stopGracefully(third);
    }
    assertEquals(List.of(), QuickstartIT.unexpectedLogLines(log));
  }

  @Test
  void everyAcknowledgedPublishIsInEveryQueueAfterKillNine() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("topic-crash-");
    Process first = server(port, log);
    int queues = 5;
    String topic;
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    try (SnsClient sns = sns(port); SqsClient sqs = sqs(port)) {
      topic = sns.createTopic(r -> r.name("crash")).topicArn();
      for (int i = 0; i < queues; i++) {
        String name = "crash-" + i;
        sqs.createQueue(r -> r.queueName(name));
        sns.subscribe(r -> r.topicArn(topic).protocol("sqs").endpoint(queueArn(name))
            .attributes(Map.of("RawMessageDelivery", "true")));
      }
      AtomicBoolean killed = new AtomicBoolean();
      AtomicInteger next = new AtomicInteger();
      List<CompletableFuture<Void>> publishers = new ArrayList<>();
      for (int p = 0; p < 8; p++) {
        publishers.add(CompletableFuture.runAsync(() -> {
          try (SnsClient own = SnsClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port))
              .region(Region.US_EAST_1)
              .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "s")))
              .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD))
              .httpClient(UrlConnectionHttpClient.builder().build()).build()) {
            while (!killed.get()) {
              String body = "p-" + next.getAndIncrement();
              try {
                own.publish(r -> r.topicArn(topic).message(body));
                acknowledged.add(body);
              } catch (RuntimeException crashed) {
                return;
              }
            }
          }
        }));
      }
      while (acknowledged.size() < 1000) {
        Thread.sleep(20);
      }
      first.destroyForcibly(); // SIGKILL, mid-stream
      assertTrue(first.waitFor(30, TimeUnit.SECONDS));
      killed.set(true);
      CompletableFuture.allOf(publishers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    Process second = server(port, log);
    try (SqsClient sqs = sqs(port)) {
      for (int i = 0; i < queues; i++) {
        String name = "crash-" + i;
        Set<String> got = bodies(sqs, sqs.getQueueUrl(r -> r.queueName(name)).queueUrl());
        Set<String> missing = new HashSet<>(acknowledged);
        missing.removeAll(got);
        assertEquals(Set.of(), missing, name + " lacks acknowledged publishes (of " + acknowledged.size() + ")");
      }
    } finally {
      stopGracefully(second);
    }
  }
}
