package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration;
import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.AmazonSQSClientBuilder;
import com.amazonaws.services.sqs.model.AmazonSQSException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Accounts and regions through the AWS SDKs: clients configured for two regions, and with
 * credentials of two accounts, each see only their own queues; QueueArn names the client's region
 * and account; a dead-letter queue of another region or account is refused as AWS refuses it; a
 * region the server does not serve is refused as an AWS endpoint refuses it. The AWS JSON protocol
 * through the SDK for Java v2, the Query protocol through the SDK for Java v1.
 */
class AccountsAndRegionsIT {
  static final String A = "111111111111";
  static final String B = "222222222222";
  /** Authentication off: any signature, every request of the default account, in its signature's region. */
  static TestServer open;
  /** Two teams, each with a key of its own account, in two regions. */
  static TestServer teams;

  @BeforeAll
  static void start() {
    open = TestServer.start();
    teams = TestServer.start(Map.of("SLUICE_MANAGEMENT_TOKEN", "off", "SLUICE_SQS_REGIONS", "us-east-1,us-west-2",
        "SLUICE_CREDENTIALS", "[{\"accessKeyId\":\"AKIDTEAMA\",\"secretAccessKey\":\"team-a-secret\",\"accountId\":\""
            + A + "\"},{\"accessKeyId\":\"AKIDTEAMB\",\"secretAccessKey\":\"team-b-secret\",\"accountId\":\"" + B
            + "\"}]"));
  }

  @AfterAll
  static void stop() throws Exception {
    open.close();
    teams.close();
  }

  /** An SDK v2 client of {@code server} signing for {@code region}, giving up at the first error. */
  static SqsClient client(TestServer server, String region, String keyId, String secret) {
    return SqsClient.builder()
        .endpointOverride(server.endpoint)
        .region(Region.of(region))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
        .build();
  }

  static SqsClient open(String region) {
    return client(open, region, "AKIDANY", "any");
  }

  /** An SDK v1 client (the Query protocol) signing for {@code region}, without retries. */
  static AmazonSQS queryClient(TestServer server, String region, String keyId, String secret) {
    return AmazonSQSClientBuilder.standard()
        .withEndpointConfiguration(new EndpointConfiguration(server.endpoint.toString(), region))
        .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(keyId, secret)))
        .withClientConfiguration(new ClientConfiguration().withMaxErrorRetry(0))
        .build();
  }

  static String arn(SqsClient sqs, String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
        .attributesAsStrings().get("QueueArn");
  }

  static List<String> bodies(SqsClient sqs, String url) {
    return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages().stream()
        .map(Message::body).toList();
  }

  static String redrivePolicy(String targetArn) {
    return "{\"deadLetterTargetArn\":\"" + targetArn + "\",\"maxReceiveCount\":3}";
  }

  @Test
  void theSameNameInTwoRegionsIsTwoQueues() {
    try (SqsClient east = open("us-east-1"); SqsClient west = open("us-west-2")) {
      String eastUrl = east.createQueue(b -> b.queueName("twin")
          .attributesWithStrings(Map.of("VisibilityTimeout", "30"))).queueUrl();
      // Other attributes under the same name: in one region this would be QueueNameExists.
      String westUrl = west.createQueue(b -> b.queueName("twin")
          .attributesWithStrings(Map.of("VisibilityTimeout", "60"))).queueUrl();
      assertEquals(eastUrl, westUrl, "queue URLs keep their shape: the region is the request's");
      east.sendMessage(b -> b.queueUrl(eastUrl).messageBody("from east"));
      west.sendMessage(b -> b.queueUrl(westUrl).messageBody("from west"));
      assertEquals(List.of("from west"), bodies(west, westUrl));
      assertEquals(List.of("from east"), bodies(east, eastUrl));
      assertEquals("arn:aws:sqs:us-east-1:000000000000:twin", arn(east, eastUrl));
      assertEquals("arn:aws:sqs:us-west-2:000000000000:twin", arn(west, westUrl));
      west.deleteQueue(b -> b.queueUrl(westUrl));
      assertEquals("arn:aws:sqs:us-east-1:000000000000:twin", arn(east, eastUrl), "east's queue is still there");
    }
  }

  @Test
  void listingsAnswerForTheCallersRegion() {
    try (SqsClient east = open("us-east-1"); SqsClient west = open("us-west-2")) {
      String eastOnly = east.createQueue(b -> b.queueName("listed-east")).queueUrl();
      String westOnly = west.createQueue(b -> b.queueName("listed-west")).queueUrl();
      assertEquals(List.of(eastOnly), east.listQueues(b -> b.queueNamePrefix("listed-")).queueUrls());
      assertEquals(List.of(westOnly), west.listQueues(b -> b.queueNamePrefix("listed-")).queueUrls());
      assertThrows(QueueDoesNotExistException.class, () -> west.getQueueUrl(b -> b.queueName("listed-east")));

      String eastDlq = east.createQueue(b -> b.queueName("listed-dlq")).queueUrl();
      String westDlq = west.createQueue(b -> b.queueName("listed-dlq")).queueUrl();
      String source = east.createQueue(b -> b.queueName("listed-source").attributesWithStrings(
          Map.of("RedrivePolicy", redrivePolicy(arn(east, eastDlq))))).queueUrl();
      assertEquals(List.of(source), east.listDeadLetterSourceQueues(b -> b.queueUrl(eastDlq)).queueUrls());
      assertEquals(List.of(), west.listDeadLetterSourceQueues(b -> b.queueUrl(westDlq)).queueUrls());
    }
  }

  @Test
  void aDeadLetterQueueOfAnotherRegionIsRefusedAsAwsRefusesIt() {
    try (SqsClient east = open("us-east-1"); SqsClient west = open("us-west-2")) {
      String dlqArn = arn(east, east.createQueue(b -> b.queueName("far-dlq")).queueUrl());
      String policy = redrivePolicy(dlqArn);
      SqsException created = assertThrows(SqsException.class, () -> west.createQueue(b -> b.queueName("far-source")
          .attributesWithStrings(Map.of("RedrivePolicy", policy))));
      assertEquals("InvalidParameterValue", created.awsErrorDetails().errorCode());
      assertEquals("Value " + policy + " for parameter RedrivePolicy is invalid. Reason: Dead-letter target must be"
          + " in same region as the source.", created.awsErrorDetails().errorMessage());
      String westSource = west.createQueue(b -> b.queueName("far-source")).queueUrl();
      SqsException set = assertThrows(SqsException.class, () -> west.setQueueAttributes(b -> b.queueUrl(westSource)
          .attributesWithStrings(Map.of("RedrivePolicy", policy))));
      assertTrue(set.awsErrorDetails().errorMessage().endsWith("Dead-letter target must be in same region as the"
          + " source."), set.awsErrorDetails().errorMessage());
      // A move task's queues are the caller's region's: another region's ARN names none.
      ResourceNotFoundException moved = assertThrows(ResourceNotFoundException.class,
          () -> west.startMessageMoveTask(b -> b.sourceArn(dlqArn)));
      assertEquals("The resource that you specified for the SourceArn parameter doesn't exist.",
          moved.awsErrorDetails().errorMessage());
    }
  }

  @Test
  void theQueryProtocolActsInItsSignaturesRegionToo() {
    AmazonSQS eu = queryClient(open, "eu-west-1", "AKIDANY", "any");
    try (SqsClient east = open("us-east-1")) {
      String url = eu.createQueue("query-eu").getQueueUrl();
      assertEquals("arn:aws:sqs:eu-west-1:000000000000:query-eu",
          eu.getQueueAttributes(url, List.of("QueueArn")).getAttributes().get("QueueArn"));
      assertEquals(List.of(url), eu.listQueues("query-").getQueueUrls());
      assertEquals(List.of(), east.listQueues(b -> b.queueNamePrefix("query-")).queueUrls());
      String eastDlqArn = arn(east, east.createQueue(b -> b.queueName("query-dlq")).queueUrl());
      AmazonSQSException e = assertThrows(AmazonSQSException.class, () -> eu.setQueueAttributes(url,
          Map.of("RedrivePolicy", redrivePolicy(eastDlqArn))));
      assertEquals("InvalidParameterValue", e.getErrorCode());
      assertTrue(e.getErrorMessage().endsWith("Reason: Dead-letter target must be in same region as the source."),
          e.getErrorMessage());
    } finally {
      eu.shutdown();
    }
  }

  @Test
  void aPushSubscriptionConsumesTheQueueOfTheRegionItNames() throws Exception {
    try (SqsClient west = open("us-west-2");
        BridgeClient c = BridgeClient.webSocket(open.sluice.port(), "/eventbus")) {
      String url = west.createQueue(b -> b.queueName("pushed-west")).queueUrl();
      JsonObject missing = c.request("sluice.subscribe", new JsonObject().put("queueUrl", url));
      assertTrue(missing.getString("message").startsWith("QueueDoesNotExist: "),
          "without a region, the default region's queue: " + missing.encode());
      JsonObject sub = c.request("sluice.subscribe", new JsonObject().put("queueUrl", url).put("region", "us-west-2"))
          .getJsonObject("body");
      c.register(sub.getString("address"));
      west.sendMessage(b -> b.queueUrl(url).messageBody("pushed in us-west-2"));
      JsonObject pushed = c.pushed(sub.getString("address"), 5000).getJsonObject("body");
      assertEquals("pushed in us-west-2", pushed.getString("body"));
    }
  }

  @Test
  void eachCredentialActsAsItsAccount() {
    try (SqsClient teamA = client(teams, "us-east-1", "AKIDTEAMA", "team-a-secret");
        SqsClient teamAWest = client(teams, "us-west-2", "AKIDTEAMA", "team-a-secret");
        SqsClient teamB = client(teams, "us-east-1", "AKIDTEAMB", "team-b-secret")) {
      String aUrl = teamA.createQueue(b -> b.queueName("orders")).queueUrl();
      String aWestUrl = teamAWest.createQueue(b -> b.queueName("orders")).queueUrl();
      String bUrl = teamB.createQueue(b -> b.queueName("orders")).queueUrl();
      assertEquals(teams.endpoint + "/" + A + "/orders", aUrl);
      assertEquals(teams.endpoint + "/" + B + "/orders", bUrl);
      assertEquals("arn:aws:sqs:us-east-1:" + A + ":orders", arn(teamA, aUrl));
      assertEquals("arn:aws:sqs:us-west-2:" + A + ":orders", arn(teamAWest, aWestUrl));
      assertEquals("arn:aws:sqs:us-east-1:" + B + ":orders", arn(teamB, bUrl));
      assertEquals(List.of(aUrl), teamA.listQueues(b -> b.queueNamePrefix("orders")).queueUrls());
      assertEquals(List.of(bUrl), teamB.listQueues(b -> b.queueNamePrefix("orders")).queueUrls());

      teamA.sendMessage(b -> b.queueUrl(aUrl).messageBody("for A in us-east-1"));
      teamB.sendMessage(b -> b.queueUrl(bUrl).messageBody("for B"));
      assertEquals(List.of(), bodies(teamAWest, aWestUrl), "another region's queue of the same account");
      assertEquals(List.of("for B"), bodies(teamB, bUrl));
      Message got = teamA.receiveMessage(b -> b.queueUrl(aUrl).messageSystemAttributeNamesWithStrings("SenderId"))
          .messages().get(0);
      assertEquals("for A in us-east-1", got.body());
      assertEquals("AKIDTEAMA", got.attributesAsStrings().get("SenderId"));

      // GetQueueUrl's QueueOwnerAWSAccountId picks the owner, and a URL of another account names that
      // account's queues: without a grant in their policy (PermissionsIT), B may not use them.
      assertEquals(aUrl, teamA.getQueueUrl(b -> b.queueName("orders").queueOwnerAWSAccountId(A)).queueUrl());
      assertEquals("AccessDenied", assertThrows(SqsException.class,
          () -> teamB.getQueueUrl(b -> b.queueName("orders").queueOwnerAWSAccountId(A))).awsErrorDetails().errorCode());
      assertThrows(QueueDoesNotExistException.class,
          () -> teamB.getQueueUrl(b -> b.queueName("nowhere").queueOwnerAWSAccountId(A)));
      assertThrows(QueueDoesNotExistException.class,
          () -> teamB.sendMessage(b -> b.queueUrl(teams.endpoint + "/" + A + "/nowhere").messageBody("x")));
    }
  }

  @Test
  void aDeadLetterQueueOfAnotherAccountIsRefusedAsAwsRefusesIt() {
    try (SqsClient teamA = client(teams, "us-east-1", "AKIDTEAMA", "team-a-secret");
        SqsClient teamB = client(teams, "us-east-1", "AKIDTEAMB", "team-b-secret")) {
      String aDlqArn = arn(teamA, teamA.createQueue(b -> b.queueName("a-dlq")).queueUrl());
      SqsException e = assertThrows(SqsException.class, () -> teamB.createQueue(b -> b.queueName("b-source")
          .attributesWithStrings(Map.of("RedrivePolicy", redrivePolicy(aDlqArn)))));
      assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode());
      assertTrue(e.awsErrorDetails().errorMessage().endsWith(
          "Reason: Dead-letter target owner should be same as the source."), e.awsErrorDetails().errorMessage());
    }
  }

  @Test
  void aRegionTheServerDoesNotServeIsRefusedAsAnAwsEndpointRefusesIt() {
    try (SqsClient paris = client(teams, "eu-west-3", "AKIDTEAMA", "team-a-secret")) {
      SqsException e = assertThrows(SqsException.class, () -> paris.listQueues());
      assertEquals(403, e.statusCode());
      assertEquals("SignatureDoesNotMatch", e.awsErrorDetails().errorCode());
      assertEquals("Credential should be scoped to a valid region, not 'eu-west-3'. ",
          e.awsErrorDetails().errorMessage());
    }
    AmazonSQS query = queryClient(teams, "eu-west-3", "AKIDTEAMB", "team-b-secret");
    try {
      AmazonSQSException e = assertThrows(AmazonSQSException.class, () -> query.listQueues());
      assertEquals(403, e.getStatusCode());
      assertEquals("SignatureDoesNotMatch", e.getErrorCode());
      assertTrue(e.getErrorMessage().startsWith("Credential should be scoped to a valid region, not 'eu-west-3'."),
          e.getErrorMessage());
    } finally {
      query.shutdown();
    }
  }
}
