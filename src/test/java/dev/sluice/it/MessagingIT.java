package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.InvalidMessageContentsException;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.PurgeQueueInProgressException;
import software.amazon.awssdk.services.sqs.model.ReceiptHandleIsInvalidException;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;
import software.amazon.awssdk.services.sqs.model.SqsException;

/** Sending, receiving, visibility, delays and purge through the AWS SDK v2 (MD5 checks on). */
class MessagingIT extends SharedServerIT {
  static List<Message> receive(String url, int max, int visibility) {
    return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(max).visibilityTimeout(visibility)
        .messageSystemAttributeNames(MessageSystemAttributeName.ALL).messageAttributeNames("All")).messages();
  }

  @Test
  void sendReceiveDeleteRoundTripsBodyAndAttributesExactly() {
    String url = queue("roundtrip", Map.of());
    String body = "line1\r\nline2 \"&quot;&quot;\" \t \uD83D\uDE00 <xml>&amp;</xml>";
    SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageAttributes(Map.of(
        "text", MessageAttributeValue.builder().dataType("String").stringValue("Bar").build(),
        "count", MessageAttributeValue.builder().dataType("Number.int").stringValue("1493147359900").build(),
        "blob", MessageAttributeValue.builder().dataType("Binary.gif")
            .binaryValue(SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 255})).build())));
    Message m = receive(url, 1, 30).get(0);
    assertEquals(sent.messageId(), m.messageId());
    assertEquals(body, m.body());
    assertEquals(sent.md5OfMessageAttributes(), m.md5OfMessageAttributes());
    assertEquals(3, m.messageAttributes().size());
    assertEquals("Number.int", m.messageAttributes().get("count").dataType());
    assertEquals(4, m.messageAttributes().get("blob").binaryValue().asByteArray().length);
    assertEquals("AKIDTEST", m.attributesAsStrings().get("SenderId"));
    assertEquals("1", m.attributesAsStrings().get("ApproximateReceiveCount"));
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
    assertTrue(receive(url, 10, 0).isEmpty());
  }

  @Test
  void threeSendsFourReceivesThenTheFirstComesBackWithCountTwo() throws Exception {
    String url = queue("visibility", Map.of("VisibilityTimeout", "1"));
    for (String b : List.of("one", "two", "three")) {
      sqs.sendMessage(r -> r.queueUrl(url).messageBody(b));
    }
    List<String> bodies = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      bodies.add(receive(url, 1, 1).get(0).body());
    }
    assertEquals(List.of("one", "two", "three"), bodies);
    assertTrue(receive(url, 1, 1).isEmpty(), "the fourth receive is empty");
    Thread.sleep(1100);
    Message again = receive(url, 1, 30).get(0);
    assertEquals("2", again.attributesAsStrings().get("ApproximateReceiveCount"));
  }

  @Test
  void delayPerMessageAndPerQueue() throws Exception {
    String url = queue("delays", Map.of("DelaySeconds", "1"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("queue-delay"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("no-delay").delaySeconds(0));
    assertEquals(List.of("no-delay"), receive(url, 10, 30).stream().map(Message::body).toList());
    assertEquals("1", sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
        "ApproximateNumberOfMessagesDelayed")).attributesAsStrings().get("ApproximateNumberOfMessagesDelayed"));
    Thread.sleep(1100);
    assertEquals(List.of("queue-delay"), receive(url, 10, 30).stream().map(Message::body).toList());
  }

  @Test
  void changeMessageVisibilityHidesAndReleases() {
    String url = queue("changevis", Map.of());
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("x"));
    Message m = receive(url, 1, 30).get(0);
    sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()).visibilityTimeout(0));
    Message again = receive(url, 1, 30).get(0);
    assertNotEquals(m.receiptHandle(), again.receiptHandle());
    assertTrue(receive(url, 1, 30).isEmpty());
    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(again.receiptHandle()));
    SqsException e = assertThrows(SqsException.class, () -> sqs.changeMessageVisibility(b -> b.queueUrl(url)
        .receiptHandle(again.receiptHandle()).visibilityTimeout(10)));
    assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode());
  }

  @Test
  void garbageReceiptHandlesAreInvalid() {
    String url = queue("handles", Map.of());
    ReceiptHandleIsInvalidException e = assertThrows(ReceiptHandleIsInvalidException.class,
        () -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle("garbage")));
    assertEquals("The input receipt handle \"garbage\" is not a valid receipt handle.", e.awsErrorDetails().errorMessage());
  }

  @Test
  void systemAttributesAreSelectedAndTheTraceHeaderTravels() {
    String url = queue("sysattrs", Map.of());
    SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("traced").messageSystemAttributes(Map.of(
        MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
        MessageSystemAttributeValue.builder().dataType("String")
            .stringValue("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1").build())));
    assertEquals("5ae4d5d7636402d80f4eb6d213245a88", sent.md5OfMessageSystemAttributes());
    Message m = sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNames(
        MessageSystemAttributeName.AWS_TRACE_HEADER, MessageSystemAttributeName.SENT_TIMESTAMP)).messages().get(0);
    assertEquals(2, m.attributes().size());
    assertTrue(m.attributesAsStrings().get("AWSTraceHeader").startsWith("Root=1-5759e988"));
    assertFalse(m.hasMessageAttributes());
  }

  @Test
  void invalidBodyCharactersAreRejected() {
    String url = queue("invalidchars", Map.of());
    assertThrows(InvalidMessageContentsException.class,
        () -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("bad \u0000 char")));
    SqsException empty = assertThrows(SqsException.class, () -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("")));
    assertEquals("MissingParameter", empty.awsErrorDetails().errorCode());
  }

  @Test
  void messagesUpToTheQueueMaximumAreAcceptedAndLargerOnesRejected() {
    String url = queue("sizes", Map.of("MaximumMessageSize", "1024"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("é".repeat(512)));
    SqsException e = assertThrows(SqsException.class,
        () -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x".repeat(1021)).messageAttributes(Map.of(
            "k", MessageAttributeValue.builder().dataType("String").stringValue("x").build()))));
    assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode());
    assertEquals(1024, "é".repeat(512).getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void purgeEmptiesTheQueueOncePerMinute() {
    String url = queue("purged", Map.of());
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("in-flight"));
    receive(url, 1, 30);
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("visible"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("delayed").delaySeconds(60));
    sqs.purgeQueue(b -> b.queueUrl(url));
    Map<String, String> counts = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("All"))
        .attributesAsStrings();
    assertEquals("0", counts.get("ApproximateNumberOfMessages"));
    assertEquals("0", counts.get("ApproximateNumberOfMessagesNotVisible"));
    assertEquals("0", counts.get("ApproximateNumberOfMessagesDelayed"));
    PurgeQueueInProgressException e =
        assertThrows(PurgeQueueInProgressException.class, () -> sqs.purgeQueue(b -> b.queueUrl(url)));
    assertEquals(403, e.statusCode());
    assertEquals("AWS.SimpleQueueService.PurgeQueueInProgress", e.awsErrorDetails().errorCode());
  }
}
