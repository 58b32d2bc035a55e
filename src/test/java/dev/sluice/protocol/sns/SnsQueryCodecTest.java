package dev.sluice.protocol.sns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.api.topics.GetTopicAttributes;
import dev.sluice.api.topics.ListTagsForResource;
import dev.sluice.api.topics.ListTopics;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SNS Query codec: members read by the flattened names boto3, the AWS CLI and the Java SDK v2
 * send (as they serialise the SNS model), results and errors written as SNS writes them.
 */
class SnsQueryCodecTest {
  static final String ID = "req-1";

  @Test
  void mapsListsAndTagsAreReadByTheirFlattenedNamesInIndexOrder() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("Action", "CreateTopic");
    params.put("Name", "orders");
    params.put("Attributes.entry.2.key", "FifoTopic");
    params.put("Attributes.entry.2.value", "true");
    params.put("Attributes.entry.1.key", "DisplayName");
    params.put("Attributes.entry.1.value", "Orders");
    params.put("Tags.member.1.Key", "team");
    params.put("Tags.member.1.Value", "payments");
    params.put("TagKeys.member.10", "b");
    params.put("TagKeys.member.9", "a");
    params.put("TagKeys.member.x", "ignored");
    SnsReader in = SnsReader.of(params);
    assertEquals("orders", in.string("Name"));
    assertEquals(List.of("DisplayName", "FifoTopic"), List.copyOf(in.map("Attributes").keySet()));
    assertEquals(Map.of("team", "payments"), in.tags("Tags"));
    assertEquals(List.of("a", "b"), in.strings("TagKeys"));
    assertNull(in.map("Other"));
    assertNull(in.tags("Other"));
  }

  @Test
  void messageAttributesAndBatchEntriesAreReadAsTheSdksFlattenThem() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("MessageAttributes.entry.1.Name", "colour");
    params.put("MessageAttributes.entry.1.Value.DataType", "String");
    params.put("MessageAttributes.entry.1.Value.StringValue", "blue");
    params.put("MessageAttributes.entry.2.Name", "blob");
    params.put("MessageAttributes.entry.2.Value.DataType", "Binary");
    params.put("MessageAttributes.entry.2.Value.BinaryValue", "AgME");
    params.put("PublishBatchRequestEntries.member.2.Id", "second");
    params.put("PublishBatchRequestEntries.member.1.Id", "first");
    params.put("PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Name", "n");
    params.put("PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.DataType", "Number");
    params.put("PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.StringValue", "3");
    params.put("ReturnSubscriptionArn", "TRUE");
    SnsReader in = SnsReader.of(params);
    var attrs = in.messageAttributes("MessageAttributes");
    assertEquals("blue", attrs.get("colour").stringValue());
    assertEquals(List.of((byte) 2, (byte) 3, (byte) 4),
        List.of(attrs.get("blob").binaryValue()[0], attrs.get("blob").binaryValue()[1], attrs.get("blob").binaryValue()[2]));
    List<SnsReader> entries = in.entries("PublishBatchRequestEntries");
    assertEquals(List.of("first", "second"), entries.stream().map(e -> e.string("Id")).toList());
    assertEquals("3", entries.get(0).messageAttributes("MessageAttributes").get("n").stringValue());
    assertNull(entries.get(1).messageAttributes("MessageAttributes"));
    assertEquals(Boolean.TRUE, in.bool("ReturnSubscriptionArn"));
    assertThrows(SnsException.class, () -> SnsReader.of(Map.of("MessageAttributes.entry.1.Name", "b",
        "MessageAttributes.entry.1.Value.BinaryValue", "not base64!")).messageAttributes("MessageAttributes"));
  }

  @Test
  void aTagKeyGivenTwiceOrATagWithoutAValueIsRefused() {
    SnsException twice = assertThrows(SnsException.class, () -> SnsReader.of(Map.of("Tags.member.1.Key", "k",
        "Tags.member.1.Value", "1", "Tags.member.2.Key", "k", "Tags.member.2.Value", "2")).tags("Tags"));
    assertEquals("Invalid parameter: Duplicated keys are not allowed.", twice.getMessage());
    SnsException noValue = assertThrows(SnsException.class,
        () -> SnsReader.of(Map.of("Tags.member.1.Key", "k")).tags("Tags"));
    assertEquals(SnsErrorCode.VALIDATION_ERROR, noValue.code());
  }

  @Test
  void textThatIsNotUtf8IsRefused() {
    SnsException e = assertThrows(SnsException.class, () -> SnsReader.of(Map.of("Name", "bad\uDC80")).string("Name"));
    assertEquals(SnsErrorCode.INVALID_PARAMETER, e.code());
  }

  @Test
  void resultsAreWrittenInTheSnsNamespace() {
    assertEquals("<?xml version=\"1.0\"?><ListTopicsResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">"
            + "<ListTopicsResult><Topics><member><TopicArn>arn:aws:sns:us-east-1:111111111111:a</TopicArn></member>"
            + "</Topics><NextToken>tok</NextToken></ListTopicsResult><ResponseMetadata><RequestId>req-1</RequestId>"
            + "</ResponseMetadata></ListTopicsResponse>",
        document("ListTopics", new ListTopics.Response(List.of("arn:aws:sns:us-east-1:111111111111:a"), "tok")));
    assertEquals("<?xml version=\"1.0\"?><GetTopicAttributesResponse xmlns=\"http://sns.amazonaws.com/doc/"
            + "2010-03-31/\"><GetTopicAttributesResult><Attributes><entry><key>DisplayName</key><value>a &amp; b"
            + "</value></entry></Attributes></GetTopicAttributesResult><ResponseMetadata><RequestId>req-1"
            + "</RequestId></ResponseMetadata></GetTopicAttributesResponse>",
        document("GetTopicAttributes", new GetTopicAttributes.Response(Map.of("DisplayName", "a & b"))));
    assertEquals("<?xml version=\"1.0\"?><ListTagsForResourceResponse xmlns=\"http://sns.amazonaws.com/doc/"
            + "2010-03-31/\"><ListTagsForResourceResult><Tags><member><Key>k</Key><Value>v</Value></member></Tags>"
            + "</ListTagsForResourceResult><ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata>"
            + "</ListTagsForResourceResponse>",
        document("ListTagsForResource", new ListTagsForResource.Response(Map.of("k", "v"))));
    assertEquals("<?xml version=\"1.0\"?><DeleteTopicResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">"
        + "<ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata></DeleteTopicResponse>",
        document("DeleteTopic", null));
    assertEquals("<?xml version=\"1.0\"?><TagResourceResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">"
        + "<TagResourceResult></TagResourceResult><ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata>"
        + "</TagResourceResponse>", document("TagResource", null));
  }

  @SuppressWarnings("unchecked")
  private static <R> String document(String action, R response) {
    return SnsResponses.document((SnsAction<?, R>) SnsActions.named(action), response, ID);
  }

  @Test
  void errorsAreWrittenInTheSnsNamespaceWithTheirFault() {
    assertEquals("<?xml version=\"1.0\"?><ErrorResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><Error>"
        + "<Type>Sender</Type><Code>NotFound</Code><Message>Topic does not exist</Message></Error><RequestId>req-1"
        + "</RequestId></ErrorResponse>", SnsErrors.document(SnsException.topicNotFound(), ID));
    assertTrue(SnsErrors.document(new SnsException(SnsErrorCode.INTERNAL_ERROR, "x"), ID)
        .contains("<Type>Receiver</Type><Code>InternalError</Code>"));
  }

  @Test
  void failuresSnsSharesWithSqsKeepTheirMeaning() {
    assertEquals(SnsErrorCode.SIGNATURE_DOES_NOT_MATCH,
        SnsErrors.asSns(new SqsException(ErrorCode.SIGNATURE_DOES_NOT_MATCH, "m")).code());
    assertEquals(SnsErrorCode.INVALID_CLIENT_TOKEN_ID,
        SnsErrors.asSns(new SqsException(ErrorCode.INVALID_CLIENT_TOKEN_ID, "m")).code());
    assertEquals(SnsErrorCode.MISSING_AUTHENTICATION_TOKEN,
        SnsErrors.asSns(new SqsException(ErrorCode.MISSING_AUTHENTICATION_TOKEN, "m")).code());
    assertEquals(403, SnsErrors.asSns(new SqsException(ErrorCode.SIGNATURE_DOES_NOT_MATCH, "m")).code().httpStatus());
    // The retryable refusals stay retryable: SDKs retry 429 and 503.
    assertEquals(429, SnsErrors.asSns(new SqsException(ErrorCode.REQUEST_THROTTLED, "m")).code().httpStatus());
    assertEquals(503, SnsErrors.asSns(new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "m")).code().httpStatus());
    SnsException bug = SnsErrors.asSns(new IllegalStateException("a bug"));
    assertEquals(SnsErrorCode.INTERNAL_ERROR, bug.code());
    assertEquals(500, bug.code().httpStatus());
  }

  @Test
  void everySnsActionIsKnownAndOnlyServedOnesHaveAnEntry() {
    assertTrue(SnsActions.isSnsAction("CreateTopic"));
    assertTrue(SnsActions.isSnsAction("Publish"));
    assertTrue(SnsActions.isNotServed("CreatePlatformApplication"));
    assertNull(SnsActions.named("ListQueues"));
    assertEquals(false, SnsActions.isSnsAction("ListQueues"));
  }
}
