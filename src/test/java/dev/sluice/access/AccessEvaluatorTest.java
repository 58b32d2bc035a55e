package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.model.JsonText;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The decision table: who, what, on whose queue, under which queue policy; ALLOW or why not. */
class AccessEvaluatorTest {
  static final String A = "111122223333";
  static final String B = "444455556666";
  static final String ORDERS = "arn:aws:sqs:us-east-1:" + A + ":orders";
  static final String PAYMENTS = "arn:aws:sqs:us-east-1:" + A + ":payments";
  static final String TOPIC = "arn:aws:sns:us-east-1:" + A + ":orders-topic";
  static final String ALICE = "arn:aws:iam::" + A + ":user/alice";

  static IdentityPolicy allow(String actions, String resource) {
    return IdentityPolicy.parse(Map.of("Effect", "Allow", "Action", List.of(actions.split(",")), "Resource", resource));
  }

  static final Requester A_ROOT = Requester.of(A, null, IdentityPolicy.FULL_ACCESS);
  static final Requester A_WORKER = Requester.of(A, "arn:aws:iam::" + A + ":user/worker",
      allow("sqs:ReceiveMessage,sqs:DeleteMessage", "arn:aws:sqs:*:" + A + ":*"));
  static final Requester A_ALICE = Requester.of(A, ALICE, IdentityPolicy.parse(List.of()));
  static final Requester A_NO_PURGE = Requester.of(A, "arn:aws:iam::" + A + ":user/ops", IdentityPolicy.parse(List.of(
      Map.of("Effect", "Allow", "Action", "sqs:*", "Resource", "*"),
      Map.of("Effect", "Deny", "Action", "sqs:PurgeQueue", "Resource", "*"))));
  static final Requester B_ROOT = Requester.of(B, null, IdentityPolicy.FULL_ACCESS);
  static final Requester B_SENDER = Requester.of(B, "arn:aws:iam::" + B + ":user/sender",
      allow("sqs:SendMessage", "arn:aws:sqs:*:" + A + ":orders"));
  static final Requester B_NOTHING = Requester.of(B, "arn:aws:iam::" + B + ":user/idle", IdentityPolicy.parse(List.of()));
  static final Requester SNS = Requester.service("sns.amazonaws.com");

  static String policy(String... statements) {
    return "{\"Version\":\"2012-10-17\",\"Statement\":[" + String.join(",", statements) + "]}";
  }

  static String statement(String effect, String principal, String action, String condition) {
    return "{\"Effect\":\"" + effect + "\"," + principal + ",\"Action\":\"" + action + "\",\"Resource\":\"" + ORDERS + "\""
        + (condition == null ? "" : ",\"Condition\":" + condition) + "}";
  }

  static final String GRANT_B_SEND = policy(statement("Allow", "\"Principal\":{\"AWS\":\"" + B + "\"}", "sqs:SendMessage", null));
  static final String GRANT_OWN_ACCOUNT = policy(statement("Allow", "\"Principal\":{\"AWS\":\"" + A + "\"}", "sqs:*", null));
  static final String GRANT_ALICE_PURGE = policy(statement("Allow", "\"Principal\":{\"AWS\":\"" + ALICE + "\"}", "sqs:PurgeQueue", null));
  static final String GRANT_EVERYONE = policy(statement("Allow", "\"Principal\":\"*\"", "sqs:*", null));
  static final String GRANT_AND_DENY_B = policy(
      statement("Allow", "\"Principal\":{\"AWS\":\"" + B + "\"}", "sqs:*", null),
      statement("Deny", "\"Principal\":{\"AWS\":\"arn:aws:iam::" + B + ":root\"}", "sqs:*", null));
  static final String ONLY_OWN_ACCOUNT = policy(
      statement("Allow", "\"Principal\":{\"AWS\":\"" + B + "\"}", "sqs:SendMessage", null),
      statement("Deny", "\"NotPrincipal\":{\"AWS\":\"" + A + "\"}", "sqs:*", null));
  static final String SNS_FROM_TOPIC = policy(statement("Allow", "\"Principal\":{\"Service\":\"sns.amazonaws.com\"}",
      "sqs:SendMessage", "{\"ArnEquals\":{\"aws:SourceArn\":\"" + TOPIC + "\"}}"));
  static final String ANYONE_FROM_OWN_TOPICS = policy(statement("Allow", "\"Principal\":{\"AWS\":\"*\"}",
      "sqs:SendMessage", "{\"ArnLike\":{\"aws:SourceArn\":\"arn:aws:sns:*:" + A + ":*\"}}"));

  static final RequestContext FROM_TOPIC = new RequestContext(TOPIC, A);
  static final RequestContext FROM_B_TOPIC = new RequestContext("arn:aws:sns:us-east-1:" + B + ":t", B);
  static final RequestContext DIRECT = RequestContext.NONE;
  static final DenialReason ALLOWED = null;

  static Stream<Arguments> table() {
    return Stream.of(
        // own account: identity or queue policy
        row("root, no policy", A_ROOT, "SendMessage", ORDERS, null, DIRECT, ALLOWED),
        row("no permissions, no policy", A_ALICE, "SendMessage", ORDERS, null, DIRECT, DenialReason.NO_IDENTITY_POLICY_ALLOWS),
        row("listed action", A_WORKER, "ReceiveMessage", ORDERS, null, DIRECT, ALLOWED),
        row("unlisted action", A_WORKER, "SendMessage", ORDERS, null, DIRECT, DenialReason.NO_IDENTITY_POLICY_ALLOWS),
        row("batch as its single form", A_WORKER, "DeleteMessageBatch", ORDERS, null, DIRECT, ALLOWED),
        row("batch of an unlisted action", A_WORKER, "ChangeMessageVisibilityBatch", ORDERS, null, DIRECT,
            DenialReason.NO_IDENTITY_POLICY_ALLOWS),
        row("queue policy names the identity", A_ALICE, "PurgeQueue", ORDERS, GRANT_ALICE_PURGE, DIRECT, ALLOWED),
        row("queue policy names another action", A_ALICE, "DeleteQueue", ORDERS, GRANT_ALICE_PURGE, DIRECT,
            DenialReason.NO_IDENTITY_POLICY_ALLOWS),
        row("naming the own account delegates", A_WORKER, "SendMessage", ORDERS, GRANT_OWN_ACCOUNT, DIRECT,
            DenialReason.NO_IDENTITY_POLICY_ALLOWS),
        row("naming the own account, root", A_ROOT, "SendMessage", ORDERS, GRANT_OWN_ACCOUNT, DIRECT, ALLOWED),
        row("everyone includes own identities", A_ALICE, "SendMessage", ORDERS, GRANT_EVERYONE, DIRECT, ALLOWED),
        row("identity deny", A_NO_PURGE, "PurgeQueue", ORDERS, null, DIRECT, DenialReason.EXPLICIT_DENY_IN_IDENTITY_POLICY),
        row("identity deny beats queue allow", A_NO_PURGE, "PurgeQueue", ORDERS, GRANT_EVERYONE, DIRECT,
            DenialReason.EXPLICIT_DENY_IN_IDENTITY_POLICY),
        row("identity deny spares the rest", A_NO_PURGE, "SendMessage", ORDERS, null, DIRECT, ALLOWED),
        row("ListQueues on the listed queue", A_WORKER, "ListQueues", ORDERS, null, DIRECT,
            DenialReason.NO_IDENTITY_POLICY_ALLOWS),
        row("CreateQueue by root", A_ROOT, "CreateQueue", PAYMENTS, null, DIRECT, ALLOWED),
        // another account: queue policy and identity
        row("cross-account, no policy", B_ROOT, "SendMessage", ORDERS, null, DIRECT, DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("cross-account, granted", B_ROOT, "SendMessage", ORDERS, GRANT_B_SEND, DIRECT, ALLOWED),
        row("cross-account batch, granted", B_ROOT, "SendMessageBatch", ORDERS, GRANT_B_SEND, DIRECT, ALLOWED),
        row("cross-account, other action", B_ROOT, "ReceiveMessage", ORDERS, GRANT_B_SEND, DIRECT,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("cross-account, identity allows too", B_SENDER, "SendMessage", ORDERS, GRANT_B_SEND, DIRECT, ALLOWED),
        row("cross-account, identity does not", B_NOTHING, "SendMessage", ORDERS, GRANT_B_SEND, DIRECT,
            DenialReason.NO_IDENTITY_POLICY_ALLOWS),
        row("cross-account, neither", B_NOTHING, "SendMessage", ORDERS, null, DIRECT, DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("cross-account, grant on another queue", B_SENDER, "SendMessage", PAYMENTS, GRANT_B_SEND, DIRECT,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("cross-account ListQueues", B_ROOT, "ListQueues", ORDERS, null, DIRECT, DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        // what SQS keeps with the owner, whatever the policy grants (Limitations of custom policies)
        row("cross-account, everything granted: receive", B_ROOT, "ReceiveMessage", ORDERS, GRANT_EVERYONE, DIRECT, ALLOWED),
        row("cross-account, everything granted: SetQueueAttributes", B_ROOT, "SetQueueAttributes", ORDERS,
            GRANT_EVERYONE, DIRECT, DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("cross-account, everything granted: DeleteQueue", B_ROOT, "DeleteQueue", ORDERS, GRANT_EVERYONE, DIRECT,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("cross-account, everything granted: AddPermission", B_ROOT, "AddPermission", ORDERS, GRANT_EVERYONE, DIRECT,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("cross-account, everything granted: TagQueue", B_ROOT, "TagQueue", ORDERS, GRANT_EVERYONE, DIRECT,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("cross-account, everything granted: ListQueueTags", B_ROOT, "ListQueueTags", ORDERS, GRANT_EVERYONE, DIRECT,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("SNS, everything granted: DeleteQueue", SNS, "DeleteQueue", ORDERS, GRANT_EVERYONE, FROM_TOPIC,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("queue deny beats queue allow", B_ROOT, "SendMessage", ORDERS, GRANT_AND_DENY_B, DIRECT,
            DenialReason.EXPLICIT_DENY_IN_RESOURCE_POLICY),
        row("a deny naming B spares A", A_ROOT, "SendMessage", ORDERS, GRANT_AND_DENY_B, DIRECT, ALLOWED),
        row("NotPrincipal deny catches B", B_ROOT, "SendMessage", ORDERS, ONLY_OWN_ACCOUNT, DIRECT,
            DenialReason.EXPLICIT_DENY_IN_RESOURCE_POLICY),
        row("NotPrincipal deny spares every A identity", A_WORKER, "ReceiveMessage", ORDERS, ONLY_OWN_ACCOUNT, DIRECT, ALLOWED),
        // services: the queue policy alone
        row("SNS from the granted topic", SNS, "SendMessage", ORDERS, SNS_FROM_TOPIC, FROM_TOPIC, ALLOWED),
        row("SNS from another topic", SNS, "SendMessage", ORDERS, SNS_FROM_TOPIC, FROM_B_TOPIC,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("SNS without a source", SNS, "SendMessage", ORDERS, SNS_FROM_TOPIC, DIRECT, DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("SNS, no policy", SNS, "SendMessage", ORDERS, null, FROM_TOPIC, DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("SNS, other action", SNS, "ReceiveMessage", ORDERS, SNS_FROM_TOPIC, FROM_TOPIC,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("anyone from own topics: SNS", SNS, "SendMessage", ORDERS, ANYONE_FROM_OWN_TOPICS, FROM_TOPIC, ALLOWED),
        row("anyone from own topics: B's topic", SNS, "SendMessage", ORDERS, ANYONE_FROM_OWN_TOPICS, FROM_B_TOPIC,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS),
        row("anyone from own topics: direct call", B_ROOT, "SendMessage", ORDERS, ANYONE_FROM_OWN_TOPICS, DIRECT,
            DenialReason.NO_RESOURCE_POLICY_ALLOWS));
  }

  static Arguments row(String name, Requester who, String action, String queue, String policy, RequestContext ctx,
      DenialReason expected) {
    return Arguments.of(name, who, action, queue, policy, ctx, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void decidesAsAwsDoes(String name, Requester who, String action, String queue, String policy, RequestContext ctx,
      DenialReason expected) {
    PolicyDocument doc = policy == null ? null : QueuePolicy.parse(policy, JsonText::parseObject);
    Decision d = AccessEvaluator.decide(new AccessRequest(who, action, queue, doc, ctx));
    assertEquals(expected == null, d.allowed(), name);
    if (expected == null) {
      assertNull(d.denial());
    } else {
      assertEquals(expected, d.denial().reason());
      assertEquals(who.principalArn(), d.denial().principalArn());
      assertEquals(IamActions.authorizedAs(action), d.denial().action());
      assertEquals(queue, d.denial().resourceArn());
    }
  }
}
