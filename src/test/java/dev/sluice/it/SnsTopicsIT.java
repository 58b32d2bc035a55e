package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.AuthorizationErrorException;
import software.amazon.awssdk.services.sns.model.InvalidParameterException;
import software.amazon.awssdk.services.sns.model.ListTopicsResponse;
import software.amazon.awssdk.services.sns.model.NotFoundException;
import software.amazon.awssdk.services.sns.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sns.model.SnsException;
import software.amazon.awssdk.services.sns.model.Tag;
import software.amazon.awssdk.services.sns.model.TagLimitExceededException;
import software.amazon.awssdk.services.sns.model.Topic;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Topics through real SNS clients against the packaged jar, with credentials configured so every
 * request is signed for the service {@code sns}: the AWS SDK for Java v2's {@code SnsClient} and
 * the AWS CLI create, list (paged), read, change, tag and delete topics, and get SNS's codes and
 * texts for what is wrong. Two accounts and two regions show that a topic is its own account's
 * and region's; SQS keeps working on the same port.
 */
@NeedsTools(Tool.AWS_CLI)
class SnsTopicsIT {
  static final String A = "111111111111";
  static final String B = "222222222222";
  static PackagedServer server;
  static URI endpoint;
  static SnsClient teamA;
  static SnsClient teamB;

  @BeforeAll
  static void start() throws Exception {
    server = PackagedServer.start("sns-topics-", Map.of("SLUICE_MANAGEMENT_TOKEN", "off",
        "SLUICE_SQS_REGIONS", "us-east-1,us-west-2",
        "SLUICE_CREDENTIALS", "[" + PermissionsIT.key("AKIDTEAMA", "team-a-secret", A, null) + ","
            + PermissionsIT.key("AKIDTEAMB", "team-b-secret", B, null) + ","
            + PermissionsIT.key("AKIDSENDER", "sender-secret", A,
                "[{\"Effect\":\"Allow\",\"Action\":\"sqs:*\",\"Resource\":\"*\"}]") + "]"));
    endpoint = server.endpoint;
    teamA = sns("AKIDTEAMA", "team-a-secret", Region.US_EAST_1);
    teamB = sns("AKIDTEAMB", "team-b-secret", Region.US_EAST_1);
  }

  @AfterAll
  static void stop() throws Exception {
    teamA.close();
    teamB.close();
    server.close();
  }

  static SnsClient sns(String keyId, String secret, Region region) {
    return server.sns(keyId, secret, region);
  }

  static String arn(String account, String name) {
    return "arn:aws:sns:us-east-1:" + account + ":" + name;
  }

  @Test
  void aTopicIsCreatedReadChangedTaggedAndDeleted() {
    String arn = teamA.createTopic(r -> r.name("orders").attributes(Map.of("DisplayName", "Orders"))
        .tags(Tag.builder().key("team").value("payments").build())).topicArn();
    assertEquals(arn(A, "orders"), arn);
    // The same name with the same attributes answers the same topic (CreateTopic is idempotent).
    assertEquals(arn, teamA.createTopic(r -> r.name("orders").attributes(Map.of("DisplayName", "Orders"))).topicArn());

    Map<String, String> attrs = teamA.getTopicAttributes(r -> r.topicArn(arn)).attributes();
    assertEquals("Orders", attrs.get("DisplayName"));
    assertEquals(A, attrs.get("Owner"));
    assertEquals(arn, attrs.get("TopicArn"));
    assertEquals("0", attrs.get("SubscriptionsConfirmed"));
    assertTrue(attrs.get("Policy").contains("\"AWS:SourceOwner\":\"" + A + "\""), attrs.get("Policy"));
    assertTrue(attrs.get("EffectiveDeliveryPolicy").contains("\"numRetries\":3"));
    assertFalse(attrs.containsKey("FifoTopic"));

    teamA.setTopicAttributes(r -> r.topicArn(arn).attributeName("DisplayName").attributeValue("All orders"));
    teamA.setTopicAttributes(r -> r.topicArn(arn).attributeName("SignatureVersion").attributeValue("2"));
    attrs = teamA.getTopicAttributes(r -> r.topicArn(arn)).attributes();
    assertEquals("All orders", attrs.get("DisplayName"));
    assertEquals("2", attrs.get("SignatureVersion"));

    teamA.tagResource(r -> r.resourceArn(arn).tags(Tag.builder().key("tier").value("gold").build(),
        Tag.builder().key("team").value("billing").build()));
    teamA.untagResource(r -> r.resourceArn(arn).tagKeys("tier"));
    assertEquals(List.of(Tag.builder().key("team").value("billing").build()),
        teamA.listTagsForResource(r -> r.resourceArn(arn)).tags());

    teamA.deleteTopic(r -> r.topicArn(arn));
    assertThrows(NotFoundException.class, () -> teamA.getTopicAttributes(r -> r.topicArn(arn)));
    teamA.deleteTopic(r -> r.topicArn(arn)); // a topic that is gone is deleted again without an error, as at AWS
  }

  @Test
  void fifoTopicsCarryTheirKindAndDeduplicationSetting() {
    String arn = teamA.createTopic(r -> r.name("ledger.fifo")
        .attributes(Map.of("FifoTopic", "true", "ContentBasedDeduplication", "true"))).topicArn();
    Map<String, String> attrs = teamA.getTopicAttributes(r -> r.topicArn(arn)).attributes();
    assertEquals("true", attrs.get("FifoTopic"));
    assertEquals("true", attrs.get("ContentBasedDeduplication"));
    assertEquals(text(InvalidParameterException.class, () -> teamA.createTopic(r -> r.name("ledger2.fifo"))),
        "Invalid parameter: Topic Name");
    assertEquals(text(InvalidParameterException.class, () -> teamA.createTopic(r -> r.name("plain")
        .attributes(Map.of("FifoTopic", "true")))), "Invalid parameter: Topic Name");
    assertEquals(text(InvalidParameterException.class, () -> teamA.setTopicAttributes(r -> r.topicArn(arn)
        .attributeName("FifoTopic").attributeValue("false"))), "Invalid parameter: AttributeName");
  }

  @Test
  void listTopicsPagesByHundredInArnOrder() {
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 130; i++) {
      String name = String.format("page-%03d", i);
      made.add(teamB.createTopic(r -> r.name(name)).topicArn());
    }
    List<String> listed = new ArrayList<>();
    ListTopicsResponse page = teamB.listTopics();
    assertEquals(100, page.topics().size());
    page.topics().forEach(t -> listed.add(t.topicArn()));
    String token = page.nextToken();
    ListTopicsResponse next = teamB.listTopics(r -> r.nextToken(token));
    next.topics().forEach(t -> listed.add(t.topicArn()));
    assertNull(next.nextToken());
    List<String> pages = listed.stream().filter(a -> a.contains(":page-")).toList();
    assertEquals(made, pages);
    // Another account's topics are not listed; the paginator walks the same pages.
    assertTrue(teamA.listTopicsPaginator().topics().stream().map(Topic::topicArn).noneMatch(a -> a.contains(B)));
    assertEquals(listed, teamB.listTopicsPaginator().topics().stream().map(Topic::topicArn).toList());
    made.forEach(a -> teamB.deleteTopic(r -> r.topicArn(a)));
  }

  @Test
  void aTopicIsItsAccountsAndItsRegions() {
    String arn = teamA.createTopic(r -> r.name("private")).topicArn();
    assertTrue(text(AuthorizationErrorException.class, () -> teamB.getTopicAttributes(r -> r.topicArn(arn)))
        .startsWith("User: arn:aws:iam::" + B + ":root is not authorized to perform: SNS:GetTopicAttributes on"
            + " resource: " + arn));
    assertThrows(AuthorizationErrorException.class, () -> teamB.deleteTopic(r -> r.topicArn(arn)));
    assertThrows(AuthorizationErrorException.class, () -> teamB.tagResource(r -> r.resourceArn(arn)
        .tags(Tag.builder().key("k").value("v").build())));
    // A credential whose permissions name SQS actions only is allowed no SNS action.
    try (SnsClient sender = sns("AKIDSENDER", "sender-secret", Region.US_EAST_1)) {
      assertTrue(text(AuthorizationErrorException.class, () -> sender.createTopic(r -> r.name("mine")))
          .contains("because no identity-based policy allows the SNS:CreateTopic action"));
      assertThrows(AuthorizationErrorException.class, () -> sender.listTopics());
    }
    // The same name in another region is another topic; an ARN of another region is refused.
    try (SnsClient west = sns("AKIDTEAMA", "team-a-secret", Region.US_WEST_2)) {
      String westArn = west.createTopic(r -> r.name("private")).topicArn();
      assertEquals("arn:aws:sns:us-west-2:" + A + ":private", westArn);
      assertEquals(text(InvalidParameterException.class, () -> west.getTopicAttributes(r -> r.topicArn(arn))),
          "Invalid parameter: TopicArn");
      assertTrue(west.listTopics().topics().stream().map(Topic::topicArn).noneMatch(arn::equals));
      west.deleteTopic(r -> r.topicArn(westArn));
    }
    teamA.deleteTopic(r -> r.topicArn(arn));
  }

  @Test
  void badRequestsGetSnsCodesAndTexts() {
    String arn = teamA.createTopic(r -> r.name("strict").attributes(Map.of("DisplayName", "One"))).topicArn();
    assertEquals("Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 1",
        text(InvalidParameterException.class, () -> teamA.getTopicAttributes(r -> r.topicArn("strict"))));
    assertEquals("Topic does not exist",
        text(NotFoundException.class, () -> teamA.getTopicAttributes(r -> r.topicArn(arn(A, "absent")))));
    assertEquals("Invalid parameter: Topic Name", text(InvalidParameterException.class,
        () -> teamA.createTopic(r -> r.name("bad name"))));
    assertEquals("Invalid parameter: Topic Name", text(InvalidParameterException.class,
        () -> teamA.createTopic(r -> r.name("x".repeat(257)))));
    assertEquals("Invalid parameter: Attributes Reason: Topic already exists with different attributes",
        text(InvalidParameterException.class, () -> teamA.createTopic(r -> r.name("strict")
            .attributes(Map.of("DisplayName", "Two")))));
    assertEquals("Invalid parameter: Tags Reason: Topic already exists with different tags",
        text(InvalidParameterException.class, () -> teamA.createTopic(r -> r.name("strict")
            .tags(Tag.builder().key("new").value("tag").build()))));
    assertEquals("Invalid parameter: Duplicated keys are not allowed.", text(InvalidParameterException.class,
        () -> teamA.tagResource(r -> r.resourceArn(arn).tags(Tag.builder().key("k").value("1").build(),
            Tag.builder().key("k").value("2").build()))));
    assertEquals("Invalid parameter: AttributeName", text(InvalidParameterException.class,
        () -> teamA.setTopicAttributes(r -> r.topicArn(arn).attributeName("Colour").attributeValue("blue"))));
    assertEquals("Invalid parameter: SignatureVersion: Invalid value [3]. Must be 1 or 2.",
        text(InvalidParameterException.class, () -> teamA.setTopicAttributes(r -> r.topicArn(arn)
            .attributeName("SignatureVersion").attributeValue("3"))));
    assertEquals("Resource does not exist", text(ResourceNotFoundException.class,
        () -> teamA.listTagsForResource(r -> r.resourceArn(arn(A, "absent")))));
    List<Tag> many = new ArrayList<>();
    for (int i = 0; i < 51; i++) {
      many.add(Tag.builder().key("k" + i).value("v").build());
    }
    assertThrows(TagLimitExceededException.class, () -> teamA.tagResource(r -> r.resourceArn(arn).tags(many)));
    assertEquals(List.of(), teamA.listTagsForResource(r -> r.resourceArn(arn)).tags(), "a refused tagging adds none");
    // A wrong secret is refused in SNS's document, with the code AWS gives.
    try (SnsClient wrong = sns("AKIDTEAMA", "not-the-secret", Region.US_EAST_1)) {
      SnsException e = assertThrows(SnsException.class, () -> wrong.listTopics());
      assertEquals("SignatureDoesNotMatch", e.awsErrorDetails().errorCode());
      assertEquals(403, e.statusCode());
    }
    teamA.deleteTopic(r -> r.topicArn(arn));
  }

  @Test
  void snsActionsSluiceDoesNotServeSaySo() throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(endpoint)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString("Action=CreatePlatformApplication&Version=2010-03-31"))
            .build(), HttpResponse.BodyHandlers.ofString());
    // Unsigned, on a server with credentials: refused before anything else, in SNS's document.
    assertEquals(403, r.statusCode(), r.body());
    assertTrue(r.body().contains("<Code>MissingAuthenticationToken</Code>"), r.body());
    SnsException e = assertThrows(SnsException.class, () -> teamA.listPlatformApplications());
    assertEquals("InvalidAction", e.awsErrorDetails().errorCode());
    assertEquals("The action ListPlatformApplications is not supported by Sluice.", e.awsErrorDetails().errorMessage());
  }

  @Test
  void sqsIsServedBesideSnsOnTheSamePort() {
    try (SqsClient sqs = server.sqs("AKIDTEAMA", "team-a-secret")) {
      String url = sqs.createQueue(r -> r.queueName("orders")).queueUrl();
      String topic = teamA.createTopic(r -> r.name("orders")).topicArn();
      assertTrue(sqs.listQueues().queueUrls().contains(url));
      assertEquals(topic, arn(A, "orders"));
      sqs.deleteQueue(r -> r.queueUrl(url));
      teamA.deleteTopic(r -> r.topicArn(topic));
    }
  }

  @Test
  void theAwsCliManagesTopics() throws Exception {
    String created = cli("sns", "create-topic", "--name", "cli-topic", "--attributes", "DisplayName=From the CLI",
        "--tags", "Key=team,Value=ops");
    assertTrue(created.contains("\"TopicArn\": \"" + arn(A, "cli-topic") + "\""), created);
    String attrs = cli("sns", "get-topic-attributes", "--topic-arn", arn(A, "cli-topic"));
    assertTrue(attrs.contains("\"DisplayName\": \"From the CLI\""), attrs);
    assertEquals("ops", teamA.listTagsForResource(r -> r.resourceArn(arn(A, "cli-topic"))).tags().get(0).value());
    cli("sns", "delete-topic", "--topic-arn", arn(A, "cli-topic"));
    assertThrows(NotFoundException.class, () -> teamA.getTopicAttributes(r -> r.topicArn(arn(A, "cli-topic"))));
  }

  static String cli(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Tools.aws(), "--endpoint-url", endpoint.toString(), "--output",
        "json"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = new HashMap<>(Map.of("AWS_ACCESS_KEY_ID", "AKIDTEAMA", "AWS_SECRET_ACCESS_KEY",
        "team-a-secret", "AWS_DEFAULT_REGION", "us-east-1", "AWS_PAGER", "", "AWS_CONFIG_FILE", "/dev/null",
        "AWS_SHARED_CREDENTIALS_FILE", "/dev/null"));
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  /** The message of the error {@code call} fails with, which must be of {@code type}. */
  static String text(Class<? extends SnsException> type, org.junit.jupiter.api.function.Executable call) {
    return assertThrows(type, call).awsErrorDetails().errorMessage();
  }
}
