package dev.sluice.protocol.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.protocol.query.QueryMembers;
import dev.sluice.protocol.query.QueryParams;
import dev.sluice.protocol.query.QueryXml;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Golden tests of the Query protocol. For every action, a Query request (as an old SDK sends it,
 * flattened names of sqs-reference §1.4) decodes to exactly the members of its AWS JSON twin, which
 * the one decoder per action then turns into the same request record. Responses render to the XML
 * of the fixtures in src/test/resources/fixtures/query/.
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
    twin("SetQueueAttributes", "QueueUrl=" + QE + "&Attribute.1.Name=DelaySeconds&Attribute.1.Value=5",
        "{\"QueueUrl\":\"" + Q + "\",\"Attributes\":{\"DelaySeconds\":\"5\"}}");
    twin("TagQueue", "QueueUrl=" + QE + "&Tag.1.Key=a&Tag.1.Value=1&Tag.2.Key=b&Tag.2.Value=2",
        "{\"QueueUrl\":\"" + Q + "\",\"Tags\":{\"a\":\"1\",\"b\":\"2\"}}");
    twin("UntagQueue", "QueueUrl=" + QE + "&TagKey.1=a&TagKey.2=b",
        "{\"QueueUrl\":\"" + Q + "\",\"TagKeys\":[\"a\",\"b\"]}");
    twin("ListQueueTags", "QueueUrl=" + QE, "{\"QueueUrl\":\"" + Q + "\"}");
    twin("PurgeQueue", "QueueUrl=" + QE, "{\"QueueUrl\":\"" + Q + "\"}");
    twin("AddPermission", "QueueUrl=" + QE + "&Label=l&AWSAccountId.1=111122223333&ActionName.1=SendMessage",
        "{\"QueueUrl\":\"" + Q + "\",\"Label\":\"l\",\"AWSAccountIds\":[\"111122223333\"],\"Actions\":[\"SendMessage\"]}");
    twin("RemovePermission", "QueueUrl=" + QE + "&Label=l", "{\"QueueUrl\":\"" + Q + "\",\"Label\":\"l\"}");
    twin("SendMessage", "QueueUrl=" + QE + "&MessageBody=hi+there&DelaySeconds=3&MessageGroupId=g&MessageDeduplicationId=d"
        + "&MessageAttribute.1.Name=kind&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=x"
        + "&MessageAttribute.2.Name=blob&MessageAttribute.2.Value.DataType=Binary&MessageAttribute.2.Value.BinaryValue=AQID"
        + "&MessageSystemAttribute.1.Name=AWSTraceHeader&MessageSystemAttribute.1.Value.DataType=String"
        + "&MessageSystemAttribute.1.Value.StringValue=Root%3D1",
        "{\"QueueUrl\":\"" + Q + "\",\"MessageBody\":\"hi there\",\"DelaySeconds\":3,\"MessageGroupId\":\"g\","
            + "\"MessageDeduplicationId\":\"d\",\"MessageAttributes\":{\"kind\":{\"DataType\":\"String\",\"StringValue\":\"x\"},"
            + "\"blob\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQID\"}},\"MessageSystemAttributes\":{\"AWSTraceHeader\":"
            + "{\"DataType\":\"String\",\"StringValue\":\"Root=1\"}}}");
    twin("SendMessageBatch", "QueueUrl=" + QE + "&SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=one"
        + "&SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=two"
        + "&SendMessageBatchRequestEntry.2.DelaySeconds=4&SendMessageBatchRequestEntry.2.MessageAttribute.1.Name=k"
        + "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.DataType=Number"
        + "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.StringValue=7",
        "{\"QueueUrl\":\"" + Q + "\",\"Entries\":[{\"Id\":\"a\",\"MessageBody\":\"one\"},{\"Id\":\"b\",\"MessageBody\":\"two\","
            + "\"DelaySeconds\":4,\"MessageAttributes\":{\"k\":{\"DataType\":\"Number\",\"StringValue\":\"7\"}}}]}");
    twin("ReceiveMessage", "QueueUrl=" + QE + "&AttributeName.1=All&MessageAttributeName.1=kind&MaxNumberOfMessages=10"
        + "&VisibilityTimeout=30&WaitTimeSeconds=20&ReceiveRequestAttemptId=r",
        "{\"QueueUrl\":\"" + Q + "\",\"AttributeNames\":[\"All\"],\"MessageAttributeNames\":[\"kind\"],\"MaxNumberOfMessages\":10,"
            + "\"VisibilityTimeout\":30,\"WaitTimeSeconds\":20,\"ReceiveRequestAttemptId\":\"r\"}");
    twin("DeleteMessage", "QueueUrl=" + QE + "&ReceiptHandle=h", "{\"QueueUrl\":\"" + Q + "\",\"ReceiptHandle\":\"h\"}");
    twin("DeleteMessageBatch", "QueueUrl=" + QE + "&DeleteMessageBatchRequestEntry.1.Id=a"
        + "&DeleteMessageBatchRequestEntry.1.ReceiptHandle=h1&DeleteMessageBatchRequestEntry.2.Id=b"
        + "&DeleteMessageBatchRequestEntry.2.ReceiptHandle=h2",
        "{\"QueueUrl\":\"" + Q + "\",\"Entries\":[{\"Id\":\"a\",\"ReceiptHandle\":\"h1\"},{\"Id\":\"b\",\"ReceiptHandle\":\"h2\"}]}");
    twin("ChangeMessageVisibility", "QueueUrl=" + QE + "&ReceiptHandle=h&VisibilityTimeout=60",
        "{\"QueueUrl\":\"" + Q + "\",\"ReceiptHandle\":\"h\",\"VisibilityTimeout\":60}");
    twin("ChangeMessageVisibilityBatch", "QueueUrl=" + QE + "&ChangeMessageVisibilityBatchRequestEntry.1.Id=a"
        + "&ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle=h&ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout=0",
        "{\"QueueUrl\":\"" + Q + "\",\"Entries\":[{\"Id\":\"a\",\"ReceiptHandle\":\"h\",\"VisibilityTimeout\":0}]}");
    twin("ListDeadLetterSourceQueues", "QueueUrl=" + QE + "&MaxResults=10",
        "{\"QueueUrl\":\"" + Q + "\",\"MaxResults\":10}");
    twin("StartMessageMoveTask", "SourceArn=arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Adlq&MaxNumberOfMessagesPerSecond=50",
        "{\"SourceArn\":\"arn:aws:sqs:us-east-1:000000000000:dlq\",\"MaxNumberOfMessagesPerSecond\":50}");
    twin("ListMessageMoveTasks", "SourceArn=arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Adlq&MaxResults=3",
        "{\"SourceArn\":\"arn:aws:sqs:us-east-1:000000000000:dlq\",\"MaxResults\":3}");
    twin("CancelMessageMoveTask", "TaskHandle=t", "{\"TaskHandle\":\"t\"}");
  }

  static void twin(String action, String form, String json) {
    TWINS.put(action, new String[] {"Action=" + action + "&Version=2012-11-05&" + form, json});
  }

  static Object json(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return JsonParser.parse(b, 0, b.length);
  }

  @Test
  void everyActionOfTheJsonProtocolHasAQueryTwin() {
    for (String action : List.of("CreateQueue", "GetQueueUrl", "DeleteQueue", "ListQueues", "GetQueueAttributes",
        "SetQueueAttributes", "TagQueue", "UntagQueue", "ListQueueTags", "PurgeQueue", "AddPermission",
        "RemovePermission", "SendMessage", "SendMessageBatch", "ReceiveMessage", "DeleteMessage", "DeleteMessageBatch",
        "ChangeMessageVisibility", "ChangeMessageVisibilityBatch", "ListDeadLetterSourceQueues",
        "StartMessageMoveTask", "ListMessageMoveTasks", "CancelMessageMoveTask")) {
      assertTrue(JsonProtocol.knows(action), action + " is an action");
      assertTrue(TWINS.containsKey(action), action + " has a golden twin");
    }
  }

  @Test
  void aQueryRequestDecodesToTheMembersOfItsJsonTwin() {
    for (Map.Entry<String, String[]> t : TWINS.entrySet()) {
      Map<String, String> params = QueryParams.of(null, Buffer.buffer(t.getValue()[0]));
      assertEquals(json(t.getValue()[1]), QueryMembers.of(t.getKey(), params), t.getKey());
    }
  }

  @Test
  void listsFollowTheirIndexesNotTheirOrderOnTheWire() {
    Map<String, String> params = QueryParams.of("AttributeName.10=C&AttributeName.2=B&AttributeName.1=A", null);
    assertEquals(List.of("A", "B", "C"), QueryMembers.of("GetQueueAttributes", params).get("AttributeNames"));
  }

  @Test
  void responsesRenderAsTheFixtures() throws Exception {
    assertFixture("receive-message.xml", QueryXml.response("ReceiveMessage", cast(json("{\"Messages\":[{\"MessageId\":\"m1\","
        + "\"ReceiptHandle\":\"h1\",\"MD5OfBody\":\"5d41402abc4b2a76b9719d911017c592\",\"Body\":\"a \\\"quoted\\\" <b>\\r\","
        + "\"Attributes\":{\"ApproximateReceiveCount\":\"1\"},\"MD5OfMessageAttributes\":\"x\",\"MessageAttributes\":"
        + "{\"kind\":{\"DataType\":\"String\",\"StringValue\":\"greeting\"}}}]}")), "req-1"));
    assertFixture("receive-message-empty.xml", QueryXml.response("ReceiveMessage", cast(json("{}")), "req-2"));
    assertFixture("send-message-batch.xml", QueryXml.response("SendMessageBatch", cast(json("{\"Successful\":[{\"Id\":\"a\","
        + "\"MessageId\":\"m1\",\"MD5OfMessageBody\":\"md5\"}],\"Failed\":[{\"Id\":\"b\",\"SenderFault\":true,"
        + "\"Code\":\"InvalidParameterValue\",\"Message\":\"bad\"}]}")), "req-3"));
    assertFixture("get-queue-attributes.xml", QueryXml.response("GetQueueAttributes",
        cast(json("{\"Attributes\":{\"VisibilityTimeout\":\"30\",\"DelaySeconds\":\"0\"}}")), "req-4"));
    assertFixture("list-queue-tags.xml", QueryXml.response("ListQueueTags", cast(json("{\"Tags\":{\"team\":\"a\"}}")), "req-5"));
    assertFixture("list-queues.xml", QueryXml.response("ListQueues",
        cast(json("{\"QueueUrls\":[\"" + Q + "\",\"" + Q + "2\"],\"NextToken\":\"n\"}")), "req-6"));
    assertFixture("delete-queue.xml", QueryXml.response("DeleteQueue", null, "req-7"));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> cast(Object o) {
    return (Map<String, Object>) o;
  }

  static void assertFixture(String name, String actual) throws Exception {
    String expected = Files.readString(Path.of("src/test/resources/fixtures/query", name)).strip();
    assertEquals(expected, actual, name);
  }
}
