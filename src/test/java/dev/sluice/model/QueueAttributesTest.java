package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueAttributesTest {
  static SqsException fails(Runnable r) {
    return assertThrows(SqsException.class, r::run);
  }

  @Test
  void standardDefaultsAreTheAwsOnes() {
    QueueAttributes a = QueueAttributes.create(false, Map.of());
    assertEquals(Map.of(
        "DelaySeconds", "0", "MaximumMessageSize", "1048576", "MessageRetentionPeriod", "345600",
        "ReceiveMessageWaitTimeSeconds", "0", "VisibilityTimeout", "30", "SqsManagedSseEnabled", "true"), a.stored());
    assertEquals(30, a.visibilitySeconds());
    assertEquals(345_600_000L, a.retentionMillis());
  }

  @Test
  void fifoDefaultsAddTheFifoAttributes() {
    QueueAttributes a = QueueAttributes.create(true, Map.of("FifoQueue", "true"));
    assertEquals("true", a.stored().get("FifoQueue"));
    assertEquals("false", a.stored().get("ContentBasedDeduplication"));
    assertEquals("queue", a.stored().get("DeduplicationScope"));
    assertEquals("perQueue", a.stored().get("FifoThroughputLimit"));
  }

  @Test
  void outOfRangeValuesAreInvalidAttributeValues() {
    for (var bad : Map.of("VisibilityTimeout", "43201", "DelaySeconds", "-1", "MaximumMessageSize", "1023",
        "MessageRetentionPeriod", "59", "ReceiveMessageWaitTimeSeconds", "21", "VisibilityTimeout ", "x").entrySet()) {
      SqsException e = fails(() -> QueueAttributes.create(false, Map.of(bad.getKey().trim(), bad.getValue())));
      assertEquals(ErrorCode.INVALID_ATTRIBUTE_VALUE, e.code());
      assertEquals("Invalid value for the parameter " + bad.getKey().trim() + ".", e.getMessage());
    }
  }

  @Test
  void unknownAndReadOnlyNamesAreInvalidAttributeNames() {
    SqsException unknown = fails(() -> QueueAttributes.create(false, Map.of("Foobar", "1")));
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_NAME, unknown.code());
    assertEquals("Unknown Attribute Foobar.", unknown.getMessage());
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_NAME,
        fails(() -> QueueAttributes.create(false, Map.of("QueueArn", "x"))).code());
  }

  @Test
  void fifoAttributesOnAStandardQueueAreUnknownWithAwsWording() {
    assertEquals("Unknown Attribute FifoQueue.",
        fails(() -> QueueAttributes.create(false, Map.of("FifoQueue", "false"))).getMessage());
    assertEquals("Unknown Attribute ContentBasedDeduplication.",
        fails(() -> QueueAttributes.create(false, Map.of("ContentBasedDeduplication", "true"))).getMessage());
    assertEquals("You can specify the DeduplicationScope only when FifoQueue is set to true.",
        fails(() -> QueueAttributes.create(false, Map.of("DeduplicationScope", "queue"))).getMessage());
    assertEquals("You can specify the FifoThroughputLimit only when FifoQueue is set to true.",
        fails(() -> QueueAttributes.create(false, Map.of("FifoThroughputLimit", "perQueue"))).getMessage());
  }

  @Test
  void queueTypeCannotChange() {
    QueueAttributes fifo = QueueAttributes.create(true, Map.of());
    fifo.with(Map.of("FifoQueue", "true"));
    SqsException e = fails(() -> fifo.with(Map.of("FifoQueue", "false")));
    assertEquals("Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.", e.getMessage());
  }

  @Test
  void booleansAreCaseInsensitiveAndRenderedLowerCase() {
    QueueAttributes a = QueueAttributes.create(false, Map.of("SqsManagedSseEnabled", "False"));
    assertEquals("false", a.stored().get("SqsManagedSseEnabled"));
  }

  @Test
  void emptyPolicyAndKmsKeyRemoveTheAttribute() {
    QueueAttributes a = QueueAttributes.create(false, Map.of(
        "Policy", "{\"Version\":\"2012-10-17\"}", "KmsMasterKeyId", "alias/aws/sqs", "KmsDataKeyReusePeriodSeconds", "300"));
    assertEquals("false", a.stored().get("SqsManagedSseEnabled"));
    assertEquals("300", a.shown("KmsDataKeyReusePeriodSeconds"));
    QueueAttributes cleared = a.with(Map.of("Policy", "", "KmsMasterKeyId", ""));
    assertNull(cleared.shown("Policy"));
    assertNull(cleared.shown("KmsMasterKeyId"));
    assertNull(cleared.shown("KmsDataKeyReusePeriodSeconds"));
  }

  @Test
  void kmsAndSqsManagedEncryptionAreExclusive() {
    SqsException e = fails(() -> QueueAttributes.create(false, Map.of("KmsMasterKeyId", "k", "SqsManagedSseEnabled", "true")));
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_NAME, e.code());
  }

  @Test
  void aPolicyMustBeAJsonObject() {
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_VALUE, fails(() -> QueueAttributes.create(false, Map.of("Policy", "[1]"))).code());
  }

  @Test
  void highThroughputNeedsMessageGroupScope() {
    QueueAttributes fifo = QueueAttributes.create(true, Map.of());
    fails(() -> fifo.with(Map.of("FifoThroughputLimit", "perMessageGroupId")));
    fifo.with(Map.of("FifoThroughputLimit", "perMessageGroupId", "DeduplicationScope", "messageGroup"));
  }

  @Test
  void firstDifferenceComparesWhatGetQueueAttributesShows() {
    QueueAttributes kms = QueueAttributes.create(false, Map.of("KmsMasterKeyId", "k"));
    assertNull(kms.firstDifference(Map.of("KmsMasterKeyId", "k", "KmsDataKeyReusePeriodSeconds", "300")));
  }

  @Test
  void firstDifferenceComparesCanonicalValues() {
    QueueAttributes a = QueueAttributes.create(false, Map.of("VisibilityTimeout", "40"));
    assertNull(a.firstDifference(Map.of("VisibilityTimeout", "40", "DelaySeconds", "0", "Policy", "")));
    assertEquals("DelaySeconds", a.firstDifference(Map.of("DelaySeconds", "1")));
    assertFalse(a.fifo());
  }

  static final String SEND_STATEMENT = "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"444455556666\"},"
      + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"arn:aws:sqs:us-east-1:000000000000:q\"}";

  @Test
  void aPolicyIsKeptAsWrittenAndParsedForTheAccessRules() {
    String policy = "{\"Version\":\"2012-10-17\",\"Statement\":" + SEND_STATEMENT + "}";
    QueueAttributes a = QueueAttributes.create(false, Map.of("Policy", policy));
    assertEquals(policy, a.shown("Policy"));
    assertEquals(1, a.policyDocument().statements().size());
    assertNull(a.policyRejection());
    assertNull(a.with(Map.of("Policy", "")).policyDocument());
  }

  @Test
  void aPolicyAwsRefusesAnswersItsBareInvalidValue() {
    for (String bad : java.util.List.of(
        "{\"Statement\":" + SEND_STATEMENT.replace("Allow", "Permit") + "}",
        "{\"Statement\":" + SEND_STATEMENT.replace("444455556666", "*x") + "}",
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\"}]}",
        "{\"Version\":\"1.0\"}",
        "{\"Statement\":[],\"Extra\":true}")) {
      SqsException e = fails(() -> QueueAttributes.create(false, Map.of("Policy", bad)));
      assertEquals(ErrorCode.INVALID_ATTRIBUTE_VALUE, e.code(), bad);
      assertEquals("Invalid value for the parameter Policy.", e.getMessage(), bad);
    }
  }

  @Test
  void policyQuotasAnswerOverLimit() {
    String tenActions = SEND_STATEMENT.replace("\"sqs:SendMessage\"", "[" + String.join(",",
        java.util.Collections.nCopies(10, "\"sqs:SendMessage\"")) + "]");
    SqsException actions = fails(() -> QueueAttributes.create(false, Map.of("Policy", "{\"Statement\":" + tenActions + "}")));
    assertEquals(ErrorCode.OVER_LIMIT, actions.code());
    assertEquals("10 actions were found in a statement from the submitted policy, max allowed is 7", actions.getMessage());
    SqsException size = fails(() -> QueueAttributes.create(false, Map.of("Policy",
        "{\"Id\":\"" + "x".repeat(8200) + "\"}")));
    assertEquals(ErrorCode.OVER_LIMIT, size.code());
    assertEquals("Submitted policy is over max allowed size.", size.getMessage());
  }

  @Test
  void aConditionSluiceCannotEvaluateIsRefusedWithTheReason() {
    String statement = SEND_STATEMENT.substring(0, SEND_STATEMENT.length() - 1)
        + ",\"Condition\":{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}}";
    SqsException e = fails(() -> QueueAttributes.create(false, Map.of("Policy", "{\"Statement\":" + statement + "}")));
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_VALUE, e.code());
    assertTrue(e.getMessage().startsWith("Invalid value for the parameter Policy. Reason: Statement 1.Condition.IpAddress:"
        + " condition operator \"IpAddress\" is not supported"), e.getMessage());
  }

  @Test
  void aRestoredPolicyThatNoLongerPassesIsKeptButGrantsNothing() {
    String old = "{\"Statement\":" + SEND_STATEMENT.replace("Allow", "allow") + "}";
    QueueAttributes a = QueueAttributes.restored(false, Map.of("Policy", old, "VisibilityTimeout", "40"));
    assertEquals(old, a.shown("Policy"));
    assertEquals(40, a.visibilitySeconds());
    assertNull(a.policyDocument());
    assertNotNull(a.policyRejection());
    QueueAttributes changed = a.with(Map.of("VisibilityTimeout", "41"));
    assertEquals(old, changed.shown("Policy"), "other changes keep it");
    assertNotNull(changed.policyRejection());
    assertNull(a.with(Map.of("Policy", "")).policyRejection(), "removing it clears the reason");
    assertNotNull(QueueAttributes.restored(false, Map.of("Policy", "{\"Statement\":" + SEND_STATEMENT + "}"))
        .policyDocument());
    assertEquals(ErrorCode.INVALID_ATTRIBUTE_VALUE,
        fails(() -> QueueAttributes.restored(false, Map.of("VisibilityTimeout", "-1"))).code());
  }
}
