package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Permissions as the configuration loader hands them over: YAML-shaped maps and lists. */
class IdentityPolicyTest {
  static final Map<String, Object> SEND = Map.of("Effect", "Allow", "Action", "sqs:SendMessage", "Resource", "*");

  @Test
  void aListOneStatementOrADocumentAreAccepted() {
    assertEquals(1, IdentityPolicy.parse(List.of(SEND)).statements().size());
    assertEquals(1, IdentityPolicy.parse(SEND).statements().size());
    assertEquals(1, IdentityPolicy.parse(Map.of("Version", "2012-10-17", "Statement", List.of(SEND))).statements().size());
    assertEquals(0, IdentityPolicy.parse(List.of()).statements().size());
  }

  @Test
  void fullAccessIsOneAllowOfEveryActionOnEveryQueue() {
    assertEquals(1, IdentityPolicy.FULL_ACCESS.statements().size());
    PolicyStatement all = IdentityPolicy.FULL_ACCESS.statements().get(0);
    assertEquals(Effect.ALLOW, all.effect());
    assertEquals(true, all.covers("PurgeQueue", "arn:aws:sqs:eu-west-1:444455556666:any", RequestContext.NONE));
  }

  @Test
  void aCredentialsPermissionsNameNoPrincipal() {
    Map<String, Object> withPrincipal = Map.of("Effect", "Allow", "Principal", "*", "Action", "sqs:*", "Resource", "*");
    PolicyException e = assertThrows(PolicyException.class, () -> IdentityPolicy.parse(List.of(SEND, withPrincipal)));
    assertEquals("Statement 2: a credential's permissions name no Principal (the credential is it)", e.getMessage());
  }

  @Test
  void errorsNameTheStatementAndElement() {
    assertEquals("Statement 1: Effect must be \"Allow\" or \"Deny\", not \"Permit\"", assertThrows(PolicyException.class,
        () -> IdentityPolicy.parse(Map.of("Effect", "Permit", "Action", "sqs:*", "Resource", "*"))).getMessage());
    assertEquals("Statement 1.Action: \"sns:Publish\" is not an SQS action (sqs:<action>)", assertThrows(
        PolicyException.class,
        () -> IdentityPolicy.parse(Map.of("Effect", "Allow", "Action", "sns:Publish", "Resource", "*"))).getMessage());
    assertEquals("permissions must be statements, not null",
        assertThrows(PolicyException.class, () -> IdentityPolicy.parse(null)).getMessage());
    assertEquals("Statement 1 must be an object, not \"sqs:*\"",
        assertThrows(PolicyException.class, () -> IdentityPolicy.parse("sqs:*")).getMessage());
  }

  @Test
  void quotasOfQueuePoliciesDoNotApply() {
    List<String> tenActions = List.of("sqs:SendMessage", "sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:PurgeQueue",
        "sqs:GetQueueUrl", "sqs:GetQueueAttributes", "sqs:ListQueues", "sqs:CreateQueue", "sqs:DeleteQueue",
        "sqs:TagQueue");
    assertEquals(1, IdentityPolicy.parse(Map.of("Effect", "Allow", "Action", tenActions, "Resource", "*"))
        .statements().size());
  }
}
