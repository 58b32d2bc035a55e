package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.sns.util.SignatureChecker;
import dev.sluice.model.JsonText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.InvalidParameterException;
import software.amazon.awssdk.services.sns.model.NotFoundException;
import software.amazon.awssdk.services.sns.model.PublishBatchRequestEntry;
import software.amazon.awssdk.services.sns.model.PublishBatchResponse;
import software.amazon.awssdk.services.sns.model.PublishResponse;
import software.amazon.awssdk.services.sns.model.SnsException;
import software.amazon.awssdk.services.sns.model.Subscription;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Fan-out to Sluice queues through real clients against the packaged jar (SDK v2 {@code SnsClient}
 * and {@code SqsClient}, signed): every subscribed queue gets its copy, filtered by attributes or by
 * body, enveloped or raw; FIFO topics keep each group's order in FIFO queues, with the group and
 * deduplication ids passed on and duplicates dropped; PublishBatch answers per entry; bad publishes
 * get SNS's codes and texts.
 */
class TopicFanOutIT {
  static final String A = "111111111111";
  static PackagedServer server;
  static SnsClient sns;
  static SqsClient sqs;

  @BeforeAll
  static void start() throws Exception {
    server = PackagedServer.start("topic-fan-out-", Map.of("SLUICE_MANAGEMENT_TOKEN", "off",
        // A budget a few large messages fill: PublishBatch's per-entry failures need a queue to refuse one.
        "SLUICE_ENGINE_MEMORY_BUDGET_BYTES", "3000000",
        "SLUICE_CREDENTIALS", "[" + PermissionsIT.key("AKIDTEAMA", "team-a-secret", A, null) + "]"));
    sns = server.sns("AKIDTEAMA", "team-a-secret", Region.US_EAST_1);
    sqs = server.sqs("AKIDTEAMA", "team-a-secret");
  }

  @AfterAll
  static void stop() throws Exception {
    sns.close();
    sqs.close();
    server.close();
  }

  static String queue(String name, Map<String, String> attributes) {
    return sqs.createQueue(r -> r.queueName(name).attributes(attributes.isEmpty() ? null
        : toQueueAttributes(attributes))).queueUrl();
  }

  static Map<software.amazon.awssdk.services.sqs.model.QueueAttributeName, String> toQueueAttributes(
      Map<String, String> attributes) {
    Map<software.amazon.awssdk.services.sqs.model.QueueAttributeName, String> out = new HashMap<>();
    attributes.forEach((k, v) -> out.put(software.amazon.awssdk.services.sqs.model.QueueAttributeName.fromValue(k), v));
    return out;
  }

  static String queueArn(String name) {
    return "arn:aws:sqs:us-east-1:" + A + ":" + name;
  }

  static String subscribe(String topicArn, String queueName, Map<String, String> attributes) {
    return sns.subscribe(r -> r.topicArn(topicArn).protocol("sqs").endpoint(queueArn(queueName))
        .attributes(attributes.isEmpty() ? null : attributes)).subscriptionArn();
  }

  /** Every message the queue holds now (received and deleted), in the order received. */
  static List<Message> drain(String url) {
    List<Message> all = new ArrayList<>();
    while (true) {
      List<Message> got = sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)
          .messageAttributeNames("All").messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
      if (got.isEmpty()) {
        return all;
      }
      all.addAll(got);
      got.forEach(m -> sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(m.receiptHandle())));
    }
  }

  static Map<String, Object> envelope(Message m) {
    return JsonText.parseObject(m.body());
  }

  static software.amazon.awssdk.services.sns.model.MessageAttributeValue attr(String type, String value) {
    return software.amazon.awssdk.services.sns.model.MessageAttributeValue.builder().dataType(type).stringValue(value)
        .build();
  }

  @Test
  void eachQueueGetsWhatItsFilterPolicyAccepts() throws Exception {
    String topic = sns.createTopic(r -> r.name("orders")).topicArn();
    String all = queue("orders-all", Map.of());
    String big = queue("orders-big", Map.of());
    String eu = queue("orders-eu", Map.of());
    String subAll = subscribe(topic, "orders-all", Map.of());
    subscribe(topic, "orders-big", Map.of("FilterPolicy", "{\"amount\":[{\"numeric\":[\">=\",100]}]}"));
    subscribe(topic, "orders-eu", Map.of("FilterPolicyScope", "MessageBody",
        "FilterPolicy", "{\"order\":{\"region\":[{\"prefix\":\"eu-\"}]}}"));

    PublishResponse small = sns.publish(r -> r.topicArn(topic).subject("New order")
        .message("{\"order\":{\"region\":\"us-east-1\",\"id\":1}}")
        .messageAttributes(Map.of("amount", attr("Number", "20"), "kind", attr("String", "retail"))));
    sns.publish(r -> r.topicArn(topic).message("{\"order\":{\"region\":\"eu-west-1\",\"id\":2}}")
        .messageAttributes(Map.of("amount", attr("Number", "250"))));
    sns.publish(r -> r.topicArn(topic).message("not json at all"));

    List<Message> toAll = drain(all);
    assertEquals(3, toAll.size());
    Map<String, Object> first = envelope(toAll.stream().filter(m -> m.body().contains(small.messageId()))
        .findFirst().orElseThrow());
    assertEquals(List.of("Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp", "SignatureVersion",
        "Signature", "SigningCertURL", "UnsubscribeURL", "MessageAttributes"), List.copyOf(first.keySet()),
        "AWS's key order");
    assertEquals("Notification", first.get("Type"));
    assertEquals(small.messageId(), first.get("MessageId"));
    assertEquals(topic, first.get("TopicArn"));
    assertEquals("New order", first.get("Subject"));
    assertTrue(((String) first.get("Timestamp")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
    assertEquals(server.endpoint + "/?Action=Unsubscribe&SubscriptionArn=" + subAll, first.get("UnsubscribeURL"));
    assertEquals(Map.of("Type", "Number", "Value", "20"),
        ((Map<?, ?>) first.get("MessageAttributes")).get("amount"));

    List<Message> toBig = drain(big);
    assertEquals(1, toBig.size());
    assertTrue(envelope(toBig.get(0)).get("Message").toString().contains("\"id\":2"));
    List<Message> toEu = drain(eu);
    assertEquals(1, toEu.size());
    assertTrue(envelope(toEu.get(0)).get("Message").toString().contains("eu-west-1"));

    // The topic's counters: 3 publishes, 3 + 1 + 1 copies, 2 + 2 subscriptions filtered out.
    String metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
        java.net.URI.create(server.endpoint + "/metrics")).GET().build(),
        java.net.http.HttpResponse.BodyHandlers.ofString()).body();
    String tags = "{account=\"" + A + "\",region=\"us-east-1\",topic=\"orders\"}";
    assertTrue(metrics.contains("sluice_topic_published_total" + tags + " 3.0"), metrics);
    assertTrue(metrics.contains("sluice_topic_delivered_total" + tags + " 5.0"), metrics);
    assertTrue(metrics.contains("sluice_topic_filtered_total" + tags + " 4.0"), metrics);
    assertTrue(metrics.contains("sluice_topic_failed_total" + tags + " 0.0"), metrics);
  }

  @Test
  void aServerWithCredentialsSendsNothingToAPrivateAddress() throws Exception {
    // outbound.allowPrivateAddresses is auto: with credentials configured, no request leaves for 127.0.0.1.
    java.util.concurrent.atomic.AtomicInteger reached = new java.util.concurrent.atomic.AtomicInteger();
    com.sun.net.httpserver.HttpServer inside =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    inside.createContext("/", exchange -> {
      reached.incrementAndGet();
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    inside.start();
    try {
      String topic = sns.createTopic(r -> r.name("inward")).topicArn();
      assertEquals("pending confirmation", sns.subscribe(r -> r.topicArn(topic).protocol("http")
          .endpoint("http://127.0.0.1:" + inside.getAddress().getPort() + "/internal")).subscriptionArn());
      Thread.sleep(1000);
      assertEquals(0, reached.get(), "the confirmation was not sent to a private address");
    } finally {
      inside.stop(0);
    }
  }

  @Test
  void envelopesAreSignedAsAwsOwnValidatorChecksThem() throws Exception {
    String topic = sns.createTopic(r -> r.name("signed")).topicArn();
    String url = queue("signed-queue", Map.of());
    subscribe(topic, "signed-queue", Map.of());
    sns.publish(r -> r.topicArn(topic).subject("Checked").message("{\"amount\": 12, \"text\": \"héllo\"}"));
    Message m = drain(url).get(0);
    Map<String, Object> env = envelope(m);
    assertEquals("1", env.get("SignatureVersion"));
    String certUrl = (String) env.get("SigningCertURL");
    assertTrue(certUrl.matches(java.util.regex.Pattern.quote(server.endpoint.toString())
        + "/sns/SimpleNotificationService-[0-9a-f]{32}\\.pem"), certUrl);
    java.net.http.HttpResponse<byte[]> pem = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(certUrl)).GET().build(),
        java.net.http.HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, pem.statusCode());
    java.security.PublicKey key = java.security.cert.CertificateFactory.getInstance("X.509")
        .generateCertificate(new java.io.ByteArrayInputStream(pem.body())).getPublicKey();
    SignatureChecker checker = new SignatureChecker();
    assertTrue(checker.verifyMessageSignature(m.body(), key), "AWS SDK's SignatureChecker accepts " + m.body());
    assertFalse(checker.verifyMessageSignature(m.body().replace("12", "13"), key), "and refuses a changed message");

    sns.setTopicAttributes(r -> r.topicArn(topic).attributeName("SignatureVersion").attributeValue("2"));
    sns.publish(r -> r.topicArn(topic).message("version two"));
    Message v2 = drain(url).get(0);
    assertEquals("2", envelope(v2).get("SignatureVersion"));
    assertTrue(checker.verifyMessageSignature(v2.body(), key));
  }

  @Test
  void rawDeliveryPassesTheMessageAndItsAttributesAsSqsAttributes() {
    String topic = sns.createTopic(r -> r.name("raw-topic")).topicArn();
    String url = queue("raw-queue", Map.of());
    String sub = subscribe(topic, "raw-queue", Map.of("RawMessageDelivery", "True"));
    assertEquals("true", sns.getSubscriptionAttributes(r -> r.subscriptionArn(sub)).attributes()
        .get("RawMessageDelivery"));
    sns.publish(r -> r.topicArn(topic).message("plain text").messageAttributes(Map.of(
        "colour", attr("String", "blue"), "size", attr("Number", "3"),
        "blob", software.amazon.awssdk.services.sns.model.MessageAttributeValue.builder().dataType("Binary")
            .binaryValue(SdkBytes.fromByteArray(new byte[] {2, 3, 4})).build())));
    List<Message> got = drain(url);
    assertEquals(1, got.size());
    Message m = got.get(0);
    assertEquals("plain text", m.body());
    assertEquals("blue", m.messageAttributes().get("colour").stringValue());
    assertEquals("Number", m.messageAttributes().get("size").dataType());
    assertEquals(SdkBytes.fromByteArray(new byte[] {2, 3, 4}), m.messageAttributes().get("blob").binaryValue());
    // Turned off again, the next copy is the envelope.
    sns.setSubscriptionAttributes(r -> r.subscriptionArn(sub).attributeName("RawMessageDelivery")
        .attributeValue("false"));
    sns.publish(r -> r.topicArn(topic).message("wrapped"));
    assertEquals("wrapped", envelope(drain(url).get(0)).get("Message"));
  }

  @Test
  void messageStructureJsonGivesQueuesTheirOwnMessage() {
    String topic = sns.createTopic(r -> r.name("structured")).topicArn();
    String url = queue("structured-queue", Map.of());
    subscribe(topic, "structured-queue", Map.of());
    sns.publish(r -> r.topicArn(topic).messageStructure("json")
        .message("{\"default\":\"for everyone\",\"sqs\":\"for queues\",\"http\":\"for endpoints\"}"));
    assertEquals("for queues", envelope(drain(url).get(0)).get("Message"));
    assertEquals("Invalid parameter: Message Structure - No default entry in JSON message body",
        text(InvalidParameterException.class, () -> sns.publish(r -> r.topicArn(topic).messageStructure("json")
            .message("{\"sqs\":\"no default\"}"))));
  }

  @Test
  void aPublishReachesEveryOneOfAHundredQueues() {
    String topic = sns.createTopic(r -> r.name("wide")).topicArn();
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      String name = "wide-" + i;
      urls.add(queue(name, Map.of()));
      subscribe(topic, name, Map.of());
    }
    assertEquals("100", sns.getTopicAttributes(r -> r.topicArn(topic)).attributes().get("SubscriptionsConfirmed"));
    List<String> listed = new ArrayList<>();
    sns.listSubscriptionsByTopicPaginator(r -> r.topicArn(topic)).subscriptions().forEach(s -> listed.add(s.endpoint()));
    assertEquals(100, listed.size());
    String id = sns.publish(r -> r.topicArn(topic).message("to all")).messageId();
    for (String url : urls) {
      List<Message> got = drain(url);
      assertEquals(1, got.size(), url);
      assertEquals(id, envelope(got.get(0)).get("MessageId"));
    }
  }

  @Test
  void aFifoTopicKeepsEachGroupsOrderInFifoQueuesAndDropsDuplicates() {
    String topic = sns.createTopic(r -> r.name("ledger.fifo").attributes(Map.of("FifoTopic", "true"))).topicArn();
    String fifoA = queue("ledger-a.fifo", Map.of("FifoQueue", "true"));
    String fifoB = queue("ledger-b.fifo", Map.of("FifoQueue", "true"));
    String standard = queue("ledger-audit", Map.of());
    subscribe(topic, "ledger-a.fifo", Map.of());
    subscribe(topic, "ledger-b.fifo", Map.of("RawMessageDelivery", "true"));
    subscribe(topic, "ledger-audit", Map.of());

    Map<String, List<String>> sentByGroup = new LinkedHashMap<>();
    List<String> sequenceNumbers = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String group = "account-" + (i % 3);
      String body = group + "#" + i;
      PublishResponse p = sns.publish(r -> r.topicArn(topic).message(body).messageGroupId(group)
          .messageDeduplicationId("dedup-" + body.replace('#', '-')));
      sequenceNumbers.add(p.sequenceNumber());
      sentByGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(body);
    }
    List<String> sortedSequences = new ArrayList<>(sequenceNumbers);
    sortedSequences.sort(null);
    assertEquals(sortedSequences, sequenceNumbers, "a FIFO topic's sequence numbers rise");
    // A duplicate within five minutes answers as the first did and delivers nothing.
    PublishResponse again = sns.publish(r -> r.topicArn(topic).message("account-0#0").messageGroupId("account-0")
        .messageDeduplicationId("dedup-account-0-0"));
    assertEquals(sequenceNumbers.get(0), again.sequenceNumber());

    Map<String, List<String>> inA = new LinkedHashMap<>();
    for (Message m : drain(fifoA)) {
      Map<String, Object> env = envelope(m);
      assertEquals(List.of("Type", "MessageId", "SequenceNumber", "TopicArn", "Message", "Timestamp",
          "UnsubscribeURL"), List.copyOf(env.keySet()), "AWS's FIFO envelope");
      String body = (String) env.get("Message");
      String group = m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
      assertEquals(body.substring(0, body.indexOf('#')), group);
      assertEquals("dedup-" + body.replace('#', '-'),
          m.attributes().get(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID));
      inA.computeIfAbsent(group, g -> new ArrayList<>()).add(body);
    }
    assertEquals(sentByGroup, inA);
    Map<String, List<String>> inB = new LinkedHashMap<>();
    for (Message m : drain(fifoB)) {
      inB.computeIfAbsent(m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID),
          g -> new ArrayList<>()).add(m.body());
    }
    assertEquals(sentByGroup, inB);
    List<Message> audit = drain(standard);
    assertEquals(30, audit.size());
    assertNull(audit.get(0).attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID));
  }

  @Test
  void contentBasedDeduplicationUsesTheMessagesHash() {
    String topic = sns.createTopic(r -> r.name("cbd.fifo").attributes(Map.of("FifoTopic", "true",
        "ContentBasedDeduplication", "true"))).topicArn();
    String url = queue("cbd-queue.fifo", Map.of("FifoQueue", "true"));
    subscribe(topic, "cbd-queue.fifo", Map.of("RawMessageDelivery", "true"));
    String first = sns.publish(r -> r.topicArn(topic).message("Test").messageGroupId("g")).messageId();
    assertEquals(first, sns.publish(r -> r.topicArn(topic).message("Test").messageGroupId("g")).messageId());
    List<Message> got = drain(url);
    assertEquals(1, got.size());
    // AWS-recorded: the SHA-256 of "Test".
    assertEquals("532eaabd9574880dbf76b9b8cc00832c20a6ec113d682299550d7a6e0f345e25",
        got.get(0).attributes().get(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID));
  }

  @Test
  void publishBatchAnswersEachEntryAndRefusesWhatSnsRefuses() {
    String topic = sns.createTopic(r -> r.name("batched")).topicArn();
    String url = queue("batched-queue", Map.of());
    subscribe(topic, "batched-queue", Map.of("RawMessageDelivery", "true"));
    PublishBatchResponse ok = sns.publishBatch(r -> r.topicArn(topic).publishBatchRequestEntries(
        PublishBatchRequestEntry.builder().id("one").message("1").build(),
        PublishBatchRequestEntry.builder().id("two").message("2").subject("s").build()));
    assertEquals(List.of("one", "two"), ok.successful().stream().map(e -> e.id()).toList());
    assertTrue(ok.failed().isEmpty());
    assertEquals(List.of("1", "2"), drain(url).stream().map(Message::body).sorted().toList());

    assertEquals("TooManyEntriesInBatchRequest", code(() -> sns.publishBatch(r -> r.topicArn(topic)
        .publishBatchRequestEntries(entries(11)))));
    assertEquals("BatchEntryIdsNotDistinct", code(() -> sns.publishBatch(r -> r.topicArn(topic)
        .publishBatchRequestEntries(PublishBatchRequestEntry.builder().id("x").message("1").build(),
            PublishBatchRequestEntry.builder().id("x").message("2").build()))));
    assertEquals("InvalidBatchEntryId", code(() -> sns.publishBatch(r -> r.topicArn(topic)
        .publishBatchRequestEntries(PublishBatchRequestEntry.builder().id("message.id").message("1").build()))));
    assertEquals("BatchRequestTooLong", code(() -> sns.publishBatch(r -> r.topicArn(topic)
        .publishBatchRequestEntries(PublishBatchRequestEntry.builder().id("a").message("x".repeat(131072)).build(),
            PublishBatchRequestEntry.builder().id("b").message("x".repeat(131073)).build()))));
    // One bad entry fails the whole request, as AWS answers it (recorded): nothing was published.
    assertEquals("InvalidParameter", code(() -> sns.publishBatch(r -> r.topicArn(topic)
        .publishBatchRequestEntries(PublishBatchRequestEntry.builder().id("good").message("fine").build(),
            PublishBatchRequestEntry.builder().id("bad").message("").build()))));
    assertTrue(drain(url).isEmpty());
  }

  @Test
  void anEntryAQueueCannotTakeNowFailsAloneAndMayBeRetried() {
    String topic = sns.createTopic(r -> r.name("full")).topicArn();
    String url = queue("full-queue", Map.of());
    subscribe(topic, "full-queue", Map.of("RawMessageDelivery", "true"));
    // Fill the server's memory budget until the queue refuses a copy (the SDK retries Throttled, then gives up).
    String big = "b".repeat(200_000);
    int stored = 0;
    try (SnsClient publisher = server.sns("AKIDTEAMA", "team-a-secret", Region.US_EAST_1)) {
      while (stored < 40) {
        try {
          publisher.publish(r -> r.topicArn(topic).message(big));
          stored++;
        } catch (SnsException full) {
          assertEquals("Throttled", full.awsErrorDetails().errorCode());
          assertEquals(429, full.statusCode());
          break;
        }
      }
    }
    assertTrue(stored > 0 && stored < 40, "the budget filled after " + stored);
    PublishBatchResponse partial = sns.publishBatch(r -> r.topicArn(topic).publishBatchRequestEntries(
        PublishBatchRequestEntry.builder().id("small").message("fits").build(),
        PublishBatchRequestEntry.builder().id("large").message(big).build()));
    assertEquals(List.of("small"), partial.successful().stream().map(e -> e.id()).toList());
    assertEquals(1, partial.failed().size());
    assertEquals("large", partial.failed().get(0).id());
    assertEquals("Throttled", partial.failed().get(0).code());
    assertFalse(partial.failed().get(0).senderFault());
    List<Message> got = drain(url);
    assertEquals(stored + 1, got.size());
    // Drained, the queue takes the entry that failed.
    assertNotNull(sns.publish(r -> r.topicArn(topic).message(big)).messageId());
    assertEquals(1, drain(url).size());
  }

  @Test
  void subscriptionsAreListedChangedAndEnded() {
    String topic = sns.createTopic(r -> r.name("subs")).topicArn();
    queue("subs-queue", Map.of());
    String sub = subscribe(topic, "subs-queue", Map.of());
    assertEquals(sub, subscribe(topic, "subs-queue", Map.of("FilterPolicyScope", "MessageAttributes")),
        "the same subscription again");
    assertEquals("Invalid parameter: Attributes Reason: Subscription already exists with different attributes",
        text(InvalidParameterException.class, () -> subscribe(topic, "subs-queue",
            Map.of("RawMessageDelivery", "true"))));
    Map<String, String> attrs = sns.getSubscriptionAttributes(r -> r.subscriptionArn(sub)).attributes();
    assertEquals("sqs", attrs.get("Protocol"));
    assertEquals(queueArn("subs-queue"), attrs.get("Endpoint"));
    assertEquals("false", attrs.get("PendingConfirmation"));
    assertEquals(A, attrs.get("Owner"));
    sns.setSubscriptionAttributes(r -> r.subscriptionArn(sub).attributeName("FilterPolicy")
        .attributeValue("{\"kind\":[\"a\"]}"));
    assertEquals("MessageAttributes", sns.getSubscriptionAttributes(r -> r.subscriptionArn(sub)).attributes()
        .get("FilterPolicyScope"));
    assertTrue(sns.listSubscriptionsPaginator().subscriptions().stream().map(Subscription::subscriptionArn)
        .anyMatch(sub::equals));
    assertEquals("Invalid parameter: RawMessageDelivery: Invalid value [maybe]. Must be true or false.",
        text(InvalidParameterException.class, () -> sns.setSubscriptionAttributes(r -> r.subscriptionArn(sub)
            .attributeName("RawMessageDelivery").attributeValue("maybe"))));
    sns.unsubscribe(r -> r.subscriptionArn(sub));
    sns.unsubscribe(r -> r.subscriptionArn(sub)); // again: no error, as at AWS
    assertEquals("Subscription does not exist", text(NotFoundException.class,
        () -> sns.getSubscriptionAttributes(r -> r.subscriptionArn(sub))));
    assertEquals("Invalid parameter: SQS endpoint ARN", text(InvalidParameterException.class,
        () -> sns.subscribe(r -> r.topicArn(topic).protocol("sqs").endpoint(server.endpoint + "/" + A + "/q"))));
    assertEquals("Invalid parameter: Amazon SNS does not support this protocol string: test-protocol",
        text(InvalidParameterException.class, () -> sns.subscribe(r -> r.topicArn(topic).protocol("test-protocol")
            .endpoint("x"))));
    assertEquals("Invalid parameter: Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to"
        + " standard SNS topics", text(InvalidParameterException.class,
        () -> sns.subscribe(r -> r.topicArn(topic).protocol("sqs").endpoint(queueArn("any.fifo")))));
    assertEquals("Invalid parameter: SubscriptionId", text(InvalidParameterException.class,
        () -> sns.unsubscribe(r -> r.subscriptionArn(topic))));
  }

  @Test
  void badPublishesGetSnsCodesAndTexts() {
    String topic = sns.createTopic(r -> r.name("picky")).topicArn();
    String fifo = sns.createTopic(r -> r.name("picky.fifo").attributes(Map.of("FifoTopic", "true"))).topicArn();
    assertEquals("Invalid parameter: Empty message",
        text(InvalidParameterException.class, () -> sns.publish(r -> r.topicArn(topic).message(""))));
    assertEquals("Invalid parameter: Message too long", text(InvalidParameterException.class,
        () -> sns.publish(r -> r.topicArn(topic).message("x".repeat(262_145)))));
    assertEquals("Invalid parameter: Subject",
        text(InvalidParameterException.class, () -> sns.publish(r -> r.topicArn(topic).message("m").subject(""))));
    assertEquals("Topic does not exist", text(NotFoundException.class,
        () -> sns.publish(r -> r.topicArn(topic + "-fake").message("m"))));
    assertEquals("Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 1",
        text(InvalidParameterException.class, () -> sns.publish(r -> r.topicArn("randomstring").message("m"))));
    assertEquals("Invalid parameter: The MessageGroupId parameter is required for FIFO topics",
        text(InvalidParameterException.class, () -> sns.publish(r -> r.topicArn(fifo).message("m"))));
    assertEquals("Invalid parameter: The topic should either have ContentBasedDeduplication enabled or"
        + " MessageDeduplicationId provided explicitly", text(InvalidParameterException.class,
        () -> sns.publish(r -> r.topicArn(fifo).message("m").messageGroupId("g"))));
    assertEquals("Invalid parameter: MessageDeduplicationId Reason: The request includes MessageDeduplicationId"
        + " parameter that is not valid for this topic type", text(InvalidParameterException.class,
        () -> sns.publish(r -> r.topicArn(topic).message("m").messageDeduplicationId("d"))));
    SnsException badType = assertThrows(SnsException.class, () -> sns.publish(r -> r.topicArn(topic).message("m")
        .messageAttributes(Map.of("attr1", attr("Stringprefixed", "v")))));
    assertEquals("ParameterValueInvalid", badType.awsErrorDetails().errorCode());
    assertEquals("The message attribute 'attr1' has an invalid message attribute type, the set of supported type"
        + " prefixes is Binary, Number, and String.", badType.awsErrorDetails().errorMessage());
    SnsException badName = assertThrows(SnsException.class, () -> sns.publish(r -> r.topicArn(topic).message("m")
        .messageAttributes(Map.of("a..bc", attr("String", "v")))));
    assertEquals("Message attribute name can not have successive '.' character.",
        badName.awsErrorDetails().errorMessage());
  }

  static List<PublishBatchRequestEntry> entries(int n) {
    List<PublishBatchRequestEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(PublishBatchRequestEntry.builder().id("e" + i).message("m" + i).build());
    }
    return out;
  }

  static String code(org.junit.jupiter.api.function.Executable call) {
    return assertThrows(SnsException.class, call).awsErrorDetails().errorCode();
  }

  static String text(Class<? extends SnsException> type, org.junit.jupiter.api.function.Executable call) {
    return assertThrows(type, call).awsErrorDetails().errorMessage();
  }
}
