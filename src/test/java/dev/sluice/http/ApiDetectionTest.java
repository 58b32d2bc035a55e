package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which API a Query request on the one port is for. The parameters are those boto3 and the AWS CLI
 * (botocore) and the Java SDKs send for each API; a signed request goes by its signature's service.
 */
class ApiDetectionTest {
  @Test
  void aSignatureNamesItsService() {
    assertTrue(ApiDetection.signedForSns("sns"));
    assertFalse(ApiDetection.signedForSns("sqs"));
    assertFalse(ApiDetection.signedForSns(null));
  }

  @Test
  void anUnsignedRequestGoesByItsVersionFirst() {
    // botocore's SNS CreateTopic, and its SQS Query call of an action SNS does not have.
    assertTrue(ApiDetection.unsignedIsSns(Map.of("Action", "CreateTopic", "Version", "2010-03-31", "Name", "t")));
    assertFalse(ApiDetection.unsignedIsSns(Map.of("Action", "ListQueues", "Version", "2012-11-05")));
    // The version wins over the action: an SQS request naming an SNS action is SQS's to refuse.
    assertFalse(ApiDetection.unsignedIsSns(Map.of("Action", "CreateTopic", "Version", "2012-11-05")));
    assertTrue(ApiDetection.unsignedIsSns(Map.of("Action", "ListQueues", "Version", "2010-03-31")));
  }

  @Test
  void withoutAVersionTheActionDecidesAndTheSharedOnesTheirResource() {
    assertTrue(ApiDetection.unsignedIsSns(Map.of("Action", "ListTopics")));
    assertTrue(ApiDetection.unsignedIsSns(Map.of("Action", "Publish", "TopicArn", "arn:aws:sns:us-east-1:1:t")));
    assertFalse(ApiDetection.unsignedIsSns(Map.of("Action", "SendMessage")));
    assertFalse(ApiDetection.unsignedIsSns(Map.of("Action", "NoSuchAction")));
    assertFalse(ApiDetection.unsignedIsSns(Map.of()));
    // AddPermission and RemovePermission are in both APIs.
    assertTrue(ApiDetection.unsignedIsSns(Map.of("Action", "AddPermission", "TopicArn", "arn:aws:sns:us-east-1:1:t")));
    assertFalse(ApiDetection.unsignedIsSns(Map.of("Action", "AddPermission", "QueueUrl", "http://h/1/q")));
    assertFalse(ApiDetection.unsignedIsSns(Map.of("Action", "RemovePermission", "Label", "l")));
  }
}
