package dev.sluice.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.protocol.json.JsonReader;
import dev.sluice.protocol.query.QueryParams;
import dev.sluice.protocol.query.QueryReader;
import io.vertx.core.buffer.Buffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Golden tests of the Query protocol's requests. For every action, a Query request as an old SDK
 * sends it (the flattened names of the SQS Query API guide) decodes to a request record equal to the
 * one its AWS JSON twin decodes to, through the one decoder each action has.
 */
class QueryGoldenTest {
  static final String Q = "http://localhost:9324/000000000000/q";
  static final String QE = "http%3A%2F%2Flocalhost%3A9324%2F000000000000%2Fq";

  /** Action → { Query form body, JSON twin }. */
  static final Map<String, String[]> TWINS = new LinkedHashMap<>();

  static {
    twin("CreateQueue", "QueueName=q.fifo&Attribute.1.Name=FifoQueue&Attribute.1.Value=true&Attribute.2.Name=VisibilityTimeout"
        + "&Attribute.2.Value=40&Tag.1.Key=team&Tag.1.Value=payments",
        "{\"QueueName\":\"q.fifo\",\"Attributes\":{\"FifoQueue\":\"true\",\"VisibilityTimeout\":\"40\"},\"tags\":{\"team\":\"payments\"}}");
    twin("GetQueueUrl", "QueueName=q&QueueOwnerAWSAccountId=000000000000",
        "{\"QueueName\":\"q\",\"QueueOwnerAWSAccountId\":\"000000000000\"}");
    twin("DeleteQueue", "QueueUrl=" + QE, "{\"QueueUrl\":\"" + Q + "\"}");
    twin("ListQueues", "QueueNamePrefix=q&MaxResults=5&NextToken=abc",
        "{\"QueueNamePrefix\":\"q\",\"MaxResults\":5,\"NextToken\":\"abc\"}");
    twin("GetQueueAttributes", "QueueUrl=" + QE + "&AttributeName.1=All&AttributeName.2=QueueArn",
        "{\"QueueUrl\":\"" + Q + "\",\"AttributeNames\":[\"All\",\"QueueArn\"]}");
    twin("SetQueueAttributes", "QueueUrl=" + QE + "&Attribute.1.Name=DelaySeconds&Attribute.1.Value=5"
        + "&Attribute.2.Name=Policy&Attribute.2.Value=",
        "{\"QueueUrl\":\"" + Q + "\",\"Attributes\":{\"DelaySeconds\":\"5\",\"Policy\":\"\"}}");
    twin("TagQueue", "QueueUrl=" + QE + "&Tag.1.Key=a&Tag.1.Value=1&Tag.2.Key=b&Tag.2.Value=",
        "{\"QueueUrl\":\"" + Q + "\",\"Tags\":{\"a\":\"1\",\"b\":\"\"}}");
    twin("UntagQueue", "QueueUrl=" + QE + "&TagKey.1=a&TagKey.2=b",
        "{\"QueueUrl\":\"" + Q + "\",\"TagKeys\":[\"a\",\"b\"]}");
    twin("ListQueueTags", "QueueUrl=" + QE, "{\"QueueUrl\":\"" + Q + "\"}");
    twin("PurgeQueue", "QueueUrl=" + QE, "{\"QueueUrl\":\"" + Q + "\"}");
    twin("AddPermission", "QueueUrl=" + QE + "&Label=l&AWSAccountId.1=111122223333&AWSAccountId.2=444455556666"
        + "&ActionName.1=SendMessage&ActionName.2=ReceiveMessage",
        "{\"QueueUrl\":\"" + Q + "\",\"Label\":\"l\",\"AWSAccountIds\":[\"111122223333\",\"444455556666\"],"
            + "\"Actions\":[\"SendMessage\",\"ReceiveMessage\"]}");
    twin("RemovePermission", "QueueUrl=" + QE + "&Label=l", "{\"QueueUrl\":\"" + Q + "\",\"Label\":\"l\"}");
    twin("SendMessage", "QueueUrl=" + QE + "&MessageBody=hi+there%0D%0A&DelaySeconds=3&MessageGroupId=g"
        + "&MessageDeduplicationId=d"
        + "&MessageAttribute.1.Name=kind&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=x"
        + "&MessageAttribute.2.Name=blob&MessageAttribute.2.Value.DataType=Binary&MessageAttribute.2.Value.BinaryValue=AQID"
        + "&MessageSystemAttribute.1.Name=AWSTraceHeader&MessageSystemAttribute.1.Value.DataType=String"
        + "&MessageSystemAttribute.1.Value.StringValue=Root%3D1",
        "{\"QueueUrl\":\"" + Q + "\",\"MessageBody\":\"hi there\\r\\n\",\"DelaySeconds\":3,\"MessageGroupId\":\"g\","
            + "\"MessageDeduplicationId\":\"d\",\"MessageAttributes\":{\"kind\":{\"DataType\":\"String\",\"StringValue\":\"x\"},"
            + "\"blob\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQID\"}},\"MessageSystemAttributes\":{\"AWSTraceHeader\":"
            + "{\"DataType\":\"String\",\"StringValue\":\"Root=1\"}}}");
    twin("SendMessageBatch", "QueueUrl=" + QE + "&SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=one"
        + "&SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=two"
        + "&SendMessageBatchRequestEntry.2.DelaySeconds=4&SendMessageBatchRequestEntry.2.MessageAttribute.1.Name=k"
        + "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.DataType=Number"
        + "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.StringValue=7"
        + "&SendMessageBatchRequestEntry.2.MessageAttribute.2.Name=b"
        + "&SendMessageBatchRequestEntry.2.MessageAttribute.2.Value.DataType=Binary.png"
        + "&SendMessageBatchRequestEntry.2.MessageAttribute.2.Value.BinaryValue=%2F%2F8%3D"
        + "&SendMessageBatchRequestEntry.2.MessageSystemAttribute.1.Name=AWSTraceHeader"
        + "&SendMessageBatchRequestEntry.2.MessageSystemAttribute.1.Value.DataType=String"
        + "&SendMessageBatchRequestEntry.2.MessageSystemAttribute.1.Value.StringValue=Root%3D2"
        + "&SendMessageBatchRequestEntry.2.MessageGroupId=g&SendMessageBatchRequestEntry.2.MessageDeduplicationId=d",
        "{\"QueueUrl\":\"" + Q + "\",\"Entries\":[{\"Id\":\"a\",\"MessageBody\":\"one\"},{\"Id\":\"b\",\"MessageBody\":\"two\","
            + "\"DelaySeconds\":4,\"MessageAttributes\":{\"k\":{\"DataType\":\"Number\",\"StringValue\":\"7\"},"
            + "\"b\":{\"DataType\":\"Binary.png\",\"BinaryValue\":\"//8=\"}},\"MessageSystemAttributes\":{\"AWSTraceHeader\":"
            + "{\"DataType\":\"String\",\"StringValue\":\"Root=2\"}},\"MessageGroupId\":\"g\",\"MessageDeduplicationId\":\"d\"}]}");
    // AttributeNames and MessageSystemAttributeNames both travel as AttributeName.N (the SQS Query API guide):
    // the Query
    // request carries both lists, which the engine unites as it does for this JSON twin.
    twin("ReceiveMessage", "QueueUrl=" + QE + "&AttributeName.1=All&MessageAttributeName.1=kind&MessageAttributeName.2=Hel.*"
        + "&MaxNumberOfMessages=10&VisibilityTimeout=30&WaitTimeSeconds=20&ReceiveRequestAttemptId=r",
        "{\"QueueUrl\":\"" + Q + "\",\"AttributeNames\":[\"All\"],\"MessageSystemAttributeNames\":[\"All\"],"
            + "\"MessageAttributeNames\":[\"kind\",\"Hel.*\"],\"MaxNumberOfMessages\":10,"
            + "\"VisibilityTimeout\":30,\"WaitTimeSeconds\":20,\"ReceiveRequestAttemptId\":\"r\"}");
    twin("DeleteMessage", "QueueUrl=" + QE + "&ReceiptHandle=h%2B%2F%3D", "{\"QueueUrl\":\"" + Q + "\",\"ReceiptHandle\":\"h+/=\"}");
    twin("DeleteMessageBatch", "QueueUrl=" + QE + "&DeleteMessageBatchRequestEntry.1.Id=a"
        + "&DeleteMessageBatchRequestEntry.1.ReceiptHandle=h1&DeleteMessageBatchRequestEntry.2.Id=b"
        + "&DeleteMessageBatchRequestEntry.2.ReceiptHandle=h2",
        "{\"QueueUrl\":\"" + Q + "\",\"Entries\":[{\"Id\":\"a\",\"ReceiptHandle\":\"h1\"},{\"Id\":\"b\",\"ReceiptHandle\":\"h2\"}]}");
    twin("ChangeMessageVisibility", "QueueUrl=" + QE + "&ReceiptHandle=h&VisibilityTimeout=60",
        "{\"QueueUrl\":\"" + Q + "\",\"ReceiptHandle\":\"h\",\"VisibilityTimeout\":60}");
    twin("ChangeMessageVisibilityBatch", "QueueUrl=" + QE + "&ChangeMessageVisibilityBatchRequestEntry.1.Id=a"
        + "&ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle=h&ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout=0"
        + "&ChangeMessageVisibilityBatchRequestEntry.2.Id=b&ChangeMessageVisibilityBatchRequestEntry.2.ReceiptHandle=i",
        "{\"QueueUrl\":\"" + Q + "\",\"Entries\":[{\"Id\":\"a\",\"ReceiptHandle\":\"h\",\"VisibilityTimeout\":0},"
            + "{\"Id\":\"b\",\"ReceiptHandle\":\"i\"}]}");
    twin("ListDeadLetterSourceQueues", "QueueUrl=" + QE + "&MaxResults=10&NextToken=t",
        "{\"QueueUrl\":\"" + Q + "\",\"MaxResults\":10,\"NextToken\":\"t\"}");
    twin("StartMessageMoveTask", "SourceArn=arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Adlq"
        + "&DestinationArn=arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Aq&MaxNumberOfMessagesPerSecond=50",
        "{\"SourceArn\":\"arn:aws:sqs:us-east-1:000000000000:dlq\",\"DestinationArn\":\"arn:aws:sqs:us-east-1:000000000000:q\","
            + "\"MaxNumberOfMessagesPerSecond\":50}");
    twin("ListMessageMoveTasks", "SourceArn=arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Adlq&MaxResults=3",
        "{\"SourceArn\":\"arn:aws:sqs:us-east-1:000000000000:dlq\",\"MaxResults\":3}");
    twin("CancelMessageMoveTask", "TaskHandle=t", "{\"TaskHandle\":\"t\"}");
  }

  static void twin(String action, String form, String json) {
    TWINS.put(action, new String[] {"Action=" + action + "&Version=2012-11-05&" + form, json});
  }

  static Map<String, String> params(String form) {
    return QueryParams.of(null, Buffer.buffer(form));
  }

  static Object decodeQuery(String action, String form, String pathQueueUrl) {
    return SqsActions.named(action).decode(QueryReader.of(action, params(form), pathQueueUrl));
  }

  static Object decodeJson(String action, String json) {
    return SqsActions.named(action).decode(JsonReader.of(Buffer.buffer(json)));
  }

  @Test
  void everyActionHasAGoldenTwin() {
    int actions = 0;
    for (SqsAction<?, ?> action : SqsActions.all()) {
      assertTrue(TWINS.containsKey(action.name()), action + " has a golden twin");
      actions++;
    }
    assertEquals(23, actions, "the actions of the SQS API reference");
  }

  @Test
  void aQueryRequestDecodesToTheRecordOfItsJsonTwin() {
    for (Map.Entry<String, String[]> t : TWINS.entrySet()) {
      Object fromQuery = decodeQuery(t.getKey(), t.getValue()[0], null);
      assertEquals(decodeJson(t.getKey(), t.getValue()[1]), fromQuery, t.getKey());
      assertNotNull(fromQuery);
    }
  }

  @Test
  void theQueueUrlPathNamesTheQueueUnlessQueueUrlIsGiven() {
    assertEquals(decodeJson("SendMessage", "{\"QueueUrl\":\"" + Q + "\",\"MessageBody\":\"m\"}"),
        decodeQuery("SendMessage", "Action=SendMessage&MessageBody=m", Q));
    assertEquals(decodeJson("SendMessage", "{\"QueueUrl\":\"" + Q + "2\",\"MessageBody\":\"m\"}"),
        decodeQuery("SendMessage", "Action=SendMessage&MessageBody=m&QueueUrl=" + QE + "2", Q), "QueueUrl wins");
    assertEquals(decodeJson("DeleteMessageBatch", "{\"QueueUrl\":\"" + Q + "\",\"Entries\":[{\"Id\":\"a\"}]}"),
        decodeQuery("DeleteMessageBatch", "DeleteMessageBatchRequestEntry.1.Id=a", Q),
        "entries have no QueueUrl of their own");
  }

  @Test
  void listsFollowTheirIndexesNotTheirOrderOnTheWire() {
    assertEquals(decodeJson("GetQueueAttributes", "{\"QueueUrl\":\"" + Q + "\",\"AttributeNames\":[\"A\",\"B\",\"C\"]}"),
        decodeQuery("GetQueueAttributes", "AttributeName.10=C&AttributeName.2=B&AttributeName.1=A&QueueUrl=" + QE, null));
  }

  @Test
  void theJavaSdkV1TagsAreReadToo() {
    // AWS SDK for Java v1 (to 1.12.583) writes TagQueue's map as Tags.N.Key / Tags.N.Value.
    assertEquals(decodeJson("TagQueue", TWINS.get("TagQueue")[1]),
        decodeQuery("TagQueue", "QueueUrl=" + QE + "&Tags.1.Key=a&Tags.1.Value=1&Tags.2.Key=b&Tags.2.Value=", null));
  }

  @Test
  void aValueThatIsNotAnIntegerIsAnInvalidParameterValue() {
    SqsException e = assertThrows(SqsException.class,
        () -> decodeQuery("ReceiveMessage", "QueueUrl=" + QE + "&MaxNumberOfMessages=ten", null));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code());
    assertEquals("Value ten for parameter MaxNumberOfMessages is invalid. Reason: Must be an integer.", e.getMessage());
    SqsException inEntry = assertThrows(SqsException.class, () -> decodeQuery("ChangeMessageVisibilityBatch",
        "ChangeMessageVisibilityBatchRequestEntry.1.Id=a&ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout=1.5",
        Q));
    assertTrue(inEntry.getMessage().contains("parameter ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout "),
        inEntry.getMessage());
  }

  @Test
  void anEntryOfAMapWithoutItsKeyOrValueIsAMissingParameter() {
    SqsException noName = assertThrows(SqsException.class,
        () -> decodeQuery("SetQueueAttributes", "Attribute.1.Value=5", Q));
    assertEquals(ErrorCode.MISSING_PARAMETER, noName.code());
    assertEquals("The request must contain the parameter Attribute.1.Name.", noName.getMessage());
    assertEquals(ErrorCode.MISSING_PARAMETER, assertThrows(SqsException.class,
        () -> decodeQuery("SendMessage", "MessageBody=m&MessageAttribute.1.Value.StringValue=x", Q)).code());
  }

  @Test
  void aBinaryValueThatIsNotBase64IsAnInvalidParameterValue() {
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, assertThrows(SqsException.class, () -> decodeQuery("SendMessage",
        "MessageBody=m&MessageAttribute.1.Name=b&MessageAttribute.1.Value.DataType=Binary"
            + "&MessageAttribute.1.Value.BinaryValue=%25%25", Q)).code());
  }

  @Test
  void absentListsAndMapsStayAbsent() {
    assertEquals(decodeJson("ReceiveMessage", "{\"QueueUrl\":\"" + Q + "\"}"),
        decodeQuery("ReceiveMessage", "AttributeName=All&MessageAttributeName.x=y", Q), "no index, no list");
  }
}
