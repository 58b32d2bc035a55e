package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import org.junit.jupiter.api.Test;

/** Topic ARNs as requests name them, and SNS's texts for those it cannot read (AWS-recorded). */
class TopicArnsTest {
  static final AccountRegion EAST = new AccountRegion("111111111111", "us-east-1");

  static SnsException refusal(String arn) {
    return assertThrows(SnsException.class, () -> TopicArns.keyOf(arn, "TopicArn", EAST));
  }

  @Test
  void aWellFormedArnNamesItsTopic() {
    assertEquals(new TopicKey("222222222222", "us-east-1", "orders.fifo"),
        TopicArns.keyOf("arn:aws:sns:us-east-1:222222222222:orders.fifo", "TopicArn", EAST));
  }

  @Test
  void shortArnsAreCountedInTheirText() {
    assertEquals("Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 1",
        refusal("randomstring").getMessage());
    assertEquals("Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 1",
        refusal("").getMessage());
    assertEquals("Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 2",
        refusal("randomstring:1").getMessage());
    assertEquals("Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 5",
        refusal("arn:aws:sns:us-east-1:random").getMessage());
    assertEquals("Invalid parameter: ResourceArn Reason: An ARN must have at least 6 elements, not 1",
        assertThrows(SnsException.class, () -> TopicArns.keyOf("x", "ResourceArn", EAST)).getMessage());
  }

  @Test
  void anythingElseThatNamesNoTopicOfThisRegionIsInvalid() {
    for (String arn : new String[] {"arn:aws:sqs:us-east-1:111111111111:orders",
        "arn:aws:sns:us-east-1:1111:orders", "arn:aws:sns:us-east-1:111111111111:bad name",
        "arn:aws:sns:us-east-1:111111111111:orders:extra", "arn:aws:sns:us-west-2:111111111111:orders",
        "nra:aws:sns:us-east-1:111111111111:orders"}) {
      SnsException e = refusal(arn);
      assertEquals(SnsErrorCode.INVALID_PARAMETER, e.code(), arn);
      assertEquals("Invalid parameter: TopicArn", e.getMessage(), arn);
    }
  }

  @Test
  void aMissingArnIsAValidationError() {
    SnsException e = refusal(null);
    assertEquals(SnsErrorCode.VALIDATION_ERROR, e.code());
    assertEquals("1 validation error detected: Value null at 'topicArn' failed to satisfy constraint: Member must not"
        + " be null", e.getMessage());
  }
}
