package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.model.AmazonSQSException;
import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.GetQueueUrlRequest;
import com.amazonaws.services.sqs.model.ListDeadLetterSourceQueuesRequest;
import com.amazonaws.services.sqs.model.PurgeQueueRequest;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Permissions through the AWS SDKs, as SQS enforces them: a credential reaches its own account's
 * queues; another account's only where the queue's policy grants it (AddPermission or the Policy
 * attribute); an explicit Deny wins over any Allow; a credential configured with permissions may do
 * only what they allow. Every SQS action that names a queue is tried across accounts, on the AWS
 * JSON protocol (SDK for Java v2) and the Query protocol (SDK for Java v1).
 */
class PermissionsIT {
  static final String A = "111111111111";
  static final String B = "222222222222";
  static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start(Map.of("SLUICE_MANAGEMENT_TOKEN", "off", "SLUICE_CREDENTIALS", "["
        + key("AKIDTEAMA", "team-a-secret", A, null) + ","
        + key("AKIDTEAMB", "team-b-secret", B, null) + ","
        // A producer of team A's: it may send to A's queues and look them up, nothing more.
        + key("AKIDPRODUCER", "producer-secret", A, "[{\"Effect\":\"Allow\",\"Action\":[\"sqs:SendMessage\","
            + "\"sqs:GetQueueUrl\"],\"Resource\":\"arn:aws:sqs:*:" + A + ":*\"}]") + ","
        // A mover of team A's: it may start move tasks, and nothing a move does.
        + key("AKIDMOVER", "mover-secret", A, "[{\"Effect\":\"Allow\",\"Action\":\"sqs:StartMessageMoveTask\","
            + "\"Resource\":\"*\"}]") + ","
        // An operator of team A's: everything but purging.
        + key("AKIDOPERATOR", "operator-secret", A, "[{\"Effect\":\"Allow\",\"Action\":\"sqs:*\",\"Resource\":\"*\"},"
            + "{\"Effect\":\"Deny\",\"Action\":\"sqs:PurgeQueue\",\"Resource\":\"*\"}]") + "]"));
  }

  static String key(String id, String secret, String account, String permissions) {
    return "{\"accessKeyId\":\"" + id + "\",\"secretAccessKey\":\"" + secret + "\",\"accountId\":\"" + account + "\""
        + (permissions == null ? "" : ",\"permissions\":" + permissions) + "}";
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static SqsClient client(String keyId, String secret) {
    return client(server, keyId, secret);
  }

  static SqsClient client(TestServer on, String keyId, String secret) {
    return AccountsAndRegionsIT.client(on, "us-east-1", keyId, secret);
  }

  /** What no queue policy lets another account do (SQS: limitations of custom policies). */
  static final Set<String> OWNER_ONLY = Set.of("SetQueueAttributes", "TagQueue", "UntagQueue",
      "ListQueueTags", "AddPermission", "RemovePermission", "DeleteQueue");

  static SqsException denied(Runnable call) {
    SqsException e = assertThrows(SqsException.class, call::run);
    assertEquals(403, e.statusCode(), e.getMessage());
    assertEquals("AccessDenied", e.awsErrorDetails().errorCode(), e.getMessage());
    return e;
  }

  static String arn(SqsClient sqs, String url) {
    return AccountsAndRegionsIT.arn(sqs, url);
  }

  /** Every SQS action that names a queue, as {@code sqs} would call it on {@code url}. */
  static Map<String, Consumer<SqsClient>> everyQueueAction(String url, String arn, String name, String handle) {
    Map<String, Consumer<SqsClient>> calls = new LinkedHashMap<>();
    calls.put("SendMessage", c -> c.sendMessage(b -> b.queueUrl(url).messageBody("x")));
    calls.put("SendMessageBatch", c -> c.sendMessageBatch(b -> b.queueUrl(url)
        .entries(e -> e.id("1").messageBody("x"))));
    calls.put("ReceiveMessage", c -> c.receiveMessage(b -> b.queueUrl(url)));
    calls.put("DeleteMessage", c -> c.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle)));
    calls.put("DeleteMessageBatch", c -> c.deleteMessageBatch(b -> b.queueUrl(url)
        .entries(e -> e.id("1").receiptHandle(handle))));
    calls.put("ChangeMessageVisibility", c -> c.changeMessageVisibility(b -> b.queueUrl(url)
        .receiptHandle(handle).visibilityTimeout(5)));
    calls.put("ChangeMessageVisibilityBatch", c -> c.changeMessageVisibilityBatch(b -> b.queueUrl(url)
        .entries(e -> e.id("1").receiptHandle(handle).visibilityTimeout(5))));
    calls.put("GetQueueAttributes", c -> c.getQueueAttributes(b -> b.queueUrl(url)
        .attributeNames(QueueAttributeName.ALL)));
    calls.put("SetQueueAttributes", c -> c.setQueueAttributes(b -> b.queueUrl(url)
        .attributesWithStrings(Map.of("VisibilityTimeout", "31"))));
    calls.put("GetQueueUrl", c -> c.getQueueUrl(b -> b.queueName(name).queueOwnerAWSAccountId(A)));
    calls.put("PurgeQueue", c -> c.purgeQueue(b -> b.queueUrl(url)));
    calls.put("TagQueue", c -> c.tagQueue(b -> b.queueUrl(url).tags(Map.of("team", "b"))));
    calls.put("UntagQueue", c -> c.untagQueue(b -> b.queueUrl(url).tagKeys("team")));
    calls.put("ListQueueTags", c -> c.listQueueTags(b -> b.queueUrl(url)));
    calls.put("AddPermission", c -> c.addPermission(b -> b.queueUrl(url).label("mine").awsAccountIds(B)
        .actions("SendMessage")));
    calls.put("RemovePermission", c -> c.removePermission(b -> b.queueUrl(url).label("b-send")));
    calls.put("ListDeadLetterSourceQueues", c -> c.listDeadLetterSourceQueues(b -> b.queueUrl(url)));
    calls.put("DeleteQueue", c -> c.deleteQueue(b -> b.queueUrl(url)));
    return calls;
  }

  @Test
  void anotherAccountsQueueIsClosedToEveryActionUntilItsPolicyOpensIt() {
    try (SqsClient teamA = client("AKIDTEAMA", "team-a-secret"); SqsClient teamB = client("AKIDTEAMB", "team-b-secret")) {
      String url = teamA.createQueue(b -> b.queueName("matrix")).queueUrl();
      String arn = arn(teamA, url);
      teamA.sendMessage(b -> b.queueUrl(url).messageBody("m"));
      String handle = teamA.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0)).messages().get(0).receiptHandle();
      for (Map.Entry<String, Consumer<SqsClient>> action : everyQueueAction(url, arn, "matrix", handle).entrySet()) {
        SqsException e = denied(() -> action.getValue().accept(teamB));
        String iam = action.getKey().replace("Batch", "").toLowerCase();
        assertEquals("User: arn:aws:iam::" + B + ":root is not authorized to perform: sqs:" + iam + " on resource: "
            + arn + " because no resource-based policy allows the sqs:" + iam + " action",
            e.awsErrorDetails().errorMessage(), action.getKey());
      }
      // B's own listing shows none of A's queues.
      assertTrue(teamB.listQueues().queueUrls().stream().noneMatch(u -> u.contains("/" + A + "/")));
      // Nothing B tried took effect: the queue, its message and its settings are as A left them.
      Map<String, String> attributes = teamA.getQueueAttributes(b -> b.queueUrl(url)
          .attributeNames(QueueAttributeName.ALL)).attributesAsStrings();
      assertEquals("1", attributes.get("ApproximateNumberOfMessages"), attributes.toString());
      assertEquals("30", attributes.get("VisibilityTimeout"));
      assertEquals(null, attributes.get("Policy"));
      assertEquals(Map.of(), teamA.listQueueTags(b -> b.queueUrl(url)).tags());

      // A grants B everything through the Policy attribute: every action opens but those SQS keeps
      // with the owner whatever a policy says (managing the queue, its tags and its permissions).
      teamA.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("Policy",
          "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"b-all\",\"Effect\":\"Allow\",\"Principal\":"
              + "{\"AWS\":\"arn:aws:iam::" + B + ":root\"},\"Action\":\"sqs:*\",\"Resource\":\"" + arn + "\"},"
              + "{\"Sid\":\"b-send\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + B + "\"},"
              + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"" + arn + "\"}]}")));
      for (Map.Entry<String, Consumer<SqsClient>> action : everyQueueAction(url, arn, "matrix", handle).entrySet()) {
        if (OWNER_ONLY.contains(action.getKey())) {
          denied(() -> action.getValue().accept(teamB));
          continue;
        }
        try {
          action.getValue().accept(teamB);
        } catch (SqsException e) {
          // Granted: whatever B gets now is the action's own answer, never AccessDenied.
          assertTrue(!"AccessDenied".equals(e.awsErrorDetails().errorCode()), action.getKey() + ": " + e.getMessage());
        }
      }
    }
  }

  @Test
  void addPermissionGrantsOnlyTheActionsItNamesAndAnExplicitDenyWins() {
    try (SqsClient teamA = client("AKIDTEAMA", "team-a-secret"); SqsClient teamB = client("AKIDTEAMB", "team-b-secret")) {
      String url = teamA.createQueue(b -> b.queueName("orders")).queueUrl();
      String arn = arn(teamA, url);
      denied(() -> teamB.sendMessage(b -> b.queueUrl(url).messageBody("before")));
      teamA.addPermission(b -> b.queueUrl(url).label("b-send").awsAccountIds(B).actions("SendMessage"));
      teamB.sendMessage(b -> b.queueUrl(url).messageBody("from B"));
      teamB.sendMessageBatch(b -> b.queueUrl(url).entries(e -> e.id("1").messageBody("batched from B")));
      denied(() -> teamB.receiveMessage(b -> b.queueUrl(url)));
      assertEquals(2, teamA.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages().size());

      // A Deny next to the grant: Deny wins, whatever the order.
      String policy = teamA.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("Policy"))
          .attributesAsStrings().get("Policy");
      String withDeny = policy.replace("\"Statement\":[", "\"Statement\":[{\"Sid\":\"no-b\",\"Effect\":\"Deny\","
          + "\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"" + arn + "\","
          + "\"Condition\":{\"StringEquals\":{\"aws:SourceAccount\":\"" + B + "\"}}},");
      assertTrue(withDeny.contains("no-b"), policy);
      teamA.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("Policy", withDeny)));
      // The Deny's condition names a source account that no client request carries: it does not apply.
      teamB.sendMessage(b -> b.queueUrl(url).messageBody("still allowed"));
      teamA.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("Policy",
          withDeny.replace(",\"Condition\":{\"StringEquals\":{\"aws:SourceAccount\":\"" + B + "\"}}", ""))));
      SqsException e = denied(() -> teamB.sendMessage(b -> b.queueUrl(url).messageBody("denied")));
      assertTrue(e.awsErrorDetails().errorMessage().endsWith("with an explicit deny in a resource-based policy"),
          e.awsErrorDetails().errorMessage());
      // The owner is denied too: a Deny to everyone binds the account's own identities.
      denied(() -> teamA.sendMessage(b -> b.queueUrl(url).messageBody("mine")));
      teamA.removePermission(b -> b.queueUrl(url).label("b-send"));
    }
  }

  static String receivePolicy(String arn, String principal) {
    return "{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + principal + "\"},"
        + "\"Action\":\"sqs:ReceiveMessage\",\"Resource\":\"" + arn + "\"}]}";
  }

  @Test
  void aMoveTaskNeedsWhatMovingDoesAndARedrivePolicyTellsNothingBeforeThePermissionCheck() {
    try (SqsClient teamA = client("AKIDTEAMA", "team-a-secret"); SqsClient teamB = client("AKIDTEAMB", "team-b-secret");
        SqsClient mover = client("AKIDMOVER", "mover-secret")) {
      String dlqUrl = teamA.createQueue(b -> b.queueName("moves-dlq")).queueUrl();
      String dlqArn = arn(teamA, dlqUrl);
      String sourceUrl = teamA.createQueue(b -> b.queueName("moves").attributesWithStrings(Map.of("RedrivePolicy",
          "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":1}"))).queueUrl();
      SqsException e = denied(() -> mover.startMessageMoveTask(b -> b.sourceArn(dlqArn)));
      assertTrue(e.awsErrorDetails().errorMessage().contains("sqs:receivemessage"), e.awsErrorDetails().errorMessage());
      teamA.startMessageMoveTask(b -> b.sourceArn(dlqArn));
      // B learns nothing of A's queues from a RedrivePolicy it may not set: AccessDenied, not
      // "does not exist" for a guessed dead-letter queue.
      denied(() -> teamB.setQueueAttributes(b -> b.queueUrl(sourceUrl).attributesWithStrings(Map.of("RedrivePolicy",
          "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:" + A + ":guess\",\"maxReceiveCount\":1}"))));
    }
  }

  @Test
  void aCredentialWithPermissionsDoesOnlyWhatTheyAllow() {
    try (SqsClient teamA = client("AKIDTEAMA", "team-a-secret");
        SqsClient producer = client("AKIDPRODUCER", "producer-secret");
        SqsClient operator = client("AKIDOPERATOR", "operator-secret")) {
      String url = teamA.createQueue(b -> b.queueName("jobs")).queueUrl();
      String arn = arn(teamA, url);
      assertEquals(url, producer.getQueueUrl(b -> b.queueName("jobs")).queueUrl());
      producer.sendMessage(b -> b.queueUrl(url).messageBody("job"));
      SqsException e = denied(() -> producer.receiveMessage(b -> b.queueUrl(url)));
      assertEquals("User: arn:aws:iam::" + A + ":user/AKIDPRODUCER is not authorized to perform: sqs:receivemessage on resource: "
          + arn + " because no identity-based policy allows the sqs:receivemessage action",
          e.awsErrorDetails().errorMessage());
      denied(() -> producer.createQueue(b -> b.queueName("producers-own")));
      denied(() -> producer.listQueues());
      denied(() -> producer.deleteQueue(b -> b.queueUrl(url)));

      // A queue policy naming the account delegates to its credentials' own permissions; one
      // naming the producer's user lets it in.
      teamA.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("Policy", receivePolicy(arn, A))));
      denied(() -> producer.receiveMessage(b -> b.queueUrl(url)));
      teamA.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("Policy",
          receivePolicy(arn, "arn:aws:iam::" + A + ":user/AKIDPRODUCER"))));
      producer.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0));
      teamA.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("Policy", "")));

      assertEquals(List.of("job"), AccountsAndRegionsIT.bodies(operator, url));
      SqsException purge = denied(() -> operator.purgeQueue(b -> b.queueUrl(url)));
      assertTrue(purge.awsErrorDetails().errorMessage().endsWith("with an explicit deny in an identity-based policy"),
          purge.awsErrorDetails().errorMessage());
      assertTrue(operator.listQueues().queueUrls().contains(url));
    }
  }

  /** Every SQS action that names a queue, as an SDK v1 (Query protocol) client would call it on {@code url}. */
  static Map<String, Consumer<AmazonSQS>> everyQueueActionOnQuery(String url, String name, String handle) {
    Map<String, Consumer<AmazonSQS>> calls = new LinkedHashMap<>();
    calls.put("SendMessage", c -> c.sendMessage(url, "x"));
    calls.put("SendMessageBatch", c -> c.sendMessageBatch(url, List.of(new SendMessageBatchRequestEntry("1", "x"))));
    calls.put("ReceiveMessage", c -> c.receiveMessage(url));
    calls.put("DeleteMessage", c -> c.deleteMessage(url, handle));
    calls.put("DeleteMessageBatch", c -> c.deleteMessageBatch(url, List.of(new DeleteMessageBatchRequestEntry("1", handle))));
    calls.put("ChangeMessageVisibility", c -> c.changeMessageVisibility(url, handle, 5));
    calls.put("ChangeMessageVisibilityBatch", c -> c.changeMessageVisibilityBatch(url,
        List.of(new ChangeMessageVisibilityBatchRequestEntry("1", handle).withVisibilityTimeout(5))));
    calls.put("GetQueueAttributes", c -> c.getQueueAttributes(url, List.of("All")));
    calls.put("SetQueueAttributes", c -> c.setQueueAttributes(url, Map.of("VisibilityTimeout", "31")));
    calls.put("GetQueueUrl", c -> c.getQueueUrl(new GetQueueUrlRequest(name).withQueueOwnerAWSAccountId(A)));
    calls.put("PurgeQueue", c -> c.purgeQueue(new PurgeQueueRequest(url)));
    calls.put("TagQueue", c -> c.tagQueue(url, Map.of("team", "b")));
    calls.put("UntagQueue", c -> c.untagQueue(url, List.of("team")));
    calls.put("ListQueueTags", c -> c.listQueueTags(url));
    calls.put("AddPermission", c -> c.addPermission(url, "mine", List.of(B), List.of("SendMessage")));
    calls.put("RemovePermission", c -> c.removePermission(url, "b-send"));
    calls.put("ListDeadLetterSourceQueues", c -> c.listDeadLetterSourceQueues(new ListDeadLetterSourceQueuesRequest(url)));
    calls.put("DeleteQueue", c -> c.deleteQueue(url));
    return calls;
  }

  @Test
  void theQueryProtocolDeniesEveryActionInItsOwnWordingUntilAPolicyGrantsItAndADenyWins() {
    AmazonSQS teamA = AccountsAndRegionsIT.queryClient(server, "us-east-1", "AKIDTEAMA", "team-a-secret");
    AmazonSQS teamB = AccountsAndRegionsIT.queryClient(server, "us-east-1", "AKIDTEAMB", "team-b-secret");
    try {
      String url = teamA.createQueue("query-orders").getQueueUrl();
      String arn = teamA.getQueueAttributes(url, List.of("QueueArn")).getAttributes().get("QueueArn");
      teamA.sendMessage(url, "m");
      String handle = teamA.receiveMessage(new ReceiveMessageRequest(url).withVisibilityTimeout(0)).getMessages().get(0)
          .getReceiptHandle();
      for (Map.Entry<String, Consumer<AmazonSQS>> action : everyQueueActionOnQuery(url, "query-orders", handle).entrySet()) {
        AmazonSQSException e = assertThrows(AmazonSQSException.class, () -> action.getValue().accept(teamB),
            action.getKey());
        assertEquals(403, e.getStatusCode(), action.getKey());
        assertEquals("AccessDenied", e.getErrorCode(), action.getKey());
        assertEquals("Access to the resource " + url + " is denied.", e.getErrorMessage(), action.getKey());
      }
      // Granted everything by the policy, B may do every action but those SQS keeps with the owner,
      // and the owner may do all (the last deletes the queue): but for SendMessage, which a Deny to
      // everyone refuses to both.
      teamA.setQueueAttributes(url, Map.of("Policy", "{\"Version\":\"2012-10-17\",\"Statement\":["
          + "{\"Sid\":\"b-all\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + B + "\"},\"Action\":\"sqs:*\","
          + "\"Resource\":\"" + arn + "\"},"
          + "{\"Sid\":\"no-send\",\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\","
          + "\"Resource\":\"" + arn + "\"}]}"));
      for (AmazonSQS caller : List.of(teamB, teamA)) {
        for (Map.Entry<String, Consumer<AmazonSQS>> action : everyQueueActionOnQuery(url, "query-orders", handle)
            .entrySet()) {
          boolean send = action.getKey().startsWith("SendMessage")
              || caller == teamB && OWNER_ONLY.contains(action.getKey());
          boolean last = caller == teamA && action.getKey().equals("DeleteQueue");
          if (caller == teamB && action.getKey().equals("DeleteQueue")) {
            continue; // B leaves the deleting to A
          }
          try {
            action.getValue().accept(caller);
            assertTrue(!send, action.getKey() + ": the Deny wins, and the owner keeps what is the owner's");
          } catch (AmazonSQSException e) {
            assertEquals(send, "AccessDenied".equals(e.getErrorCode()), action.getKey() + ": " + e.getErrorMessage());
          }
          assertTrue(!last || teamA.listQueues().getQueueUrls().stream().noneMatch(url::equals));
        }
      }
    } finally {
      teamA.shutdown();
      teamB.shutdown();
    }
  }
}
