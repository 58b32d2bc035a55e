package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.model.JsonText;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The notification envelope's keys and the text its signature covers, after AWS's documented example. */
class EnvelopeTest {
  // AWS's example notification (SNS Developer Guide: HTTP/HTTPS notification JSON format).
  static final long AT = Instant.parse("2012-05-02T00:54:06.655Z").toEpochMilli();
  static final String TOPIC = "arn:aws:sns:us-west-2:123456789012:MyTopic";
  static final String ID = "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324";

  @Test
  void theStringToSignListsNamesAndValuesInAwsOrder() {
    assertEquals("Message\nHello world!\nMessageId\n" + ID + "\nSubject\nMy First Message\nTimestamp\n"
        + "2012-05-02T00:54:06.655Z\nTopicArn\n" + TOPIC + "\nType\nNotification\n",
        Envelope.stringToSign(ID, TOPIC, "My First Message", "Hello world!", AT));
    assertEquals("Message\nHello world!\nMessageId\n" + ID + "\nTimestamp\n2012-05-02T00:54:06.655Z\nTopicArn\n"
        + TOPIC + "\nType\nNotification\n", Envelope.stringToSign(ID, TOPIC, null, "Hello world!", AT),
        "no Subject: neither its name nor its value");
  }

  @Test
  void aSignedEnvelopeHasAwsKeysInAwsOrder() {
    String json = Envelope.notification(ID, null, TOPIC, "My First Message", "Hello world!", AT,
        new Envelope.Signed("1", "c2lnbmF0dXJl", "https://h/sns/SimpleNotificationService-x.pem"), "https://h",
        TOPIC + ":c9135db0-26c4-47ec-8998-413945fb5a96", Map.of("a", new MessageAttributeValue("String", "v", null)));
    Map<String, Object> env = JsonText.parseObject(json);
    assertEquals(List.of("Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp", "SignatureVersion",
        "Signature", "SigningCertURL", "UnsubscribeURL", "MessageAttributes"), List.copyOf(env.keySet()));
    assertEquals("2012-05-02T00:54:06.655Z", env.get("Timestamp"));
    assertEquals("https://h/?Action=Unsubscribe&SubscriptionArn=" + TOPIC + ":c9135db0-26c4-47ec-8998-413945fb5a96",
        env.get("UnsubscribeURL"));
  }

  @Test
  void aFifoEnvelopeIsUnsignedAndCarriesItsSequenceNumber() {
    Map<String, Object> env = JsonText.parseObject(Envelope.notification(ID, "10000000000000000001", TOPIC + ".fifo",
        null, "m", AT, null, "https://h", TOPIC + ".fifo:x", Map.of()));
    assertEquals(List.of("Type", "MessageId", "SequenceNumber", "TopicArn", "Message", "Timestamp", "UnsubscribeURL"),
        List.copyOf(env.keySet()));
  }
}
