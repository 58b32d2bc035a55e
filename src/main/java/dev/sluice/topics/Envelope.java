package dev.sluice.topics;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.model.JsonText;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON an SQS subscriber without RawMessageDelivery receives (SNS Developer Guide: Amazon SNS
 * message and JSON formats), its keys in the order AWS writes them (recorded): {@code Type},
 * {@code MessageId}, {@code SequenceNumber} (FIFO topics), {@code TopicArn}, {@code Subject} (when
 * given), {@code Message}, {@code Timestamp}, {@code SignatureVersion}, {@code Signature} and
 * {@code SigningCertURL} (standard topics: AWS leaves them out of a FIFO topic's envelopes),
 * {@code UnsubscribeURL}, {@code MessageAttributes} (when any: {@code {"name": {"Type": …, "Value":
 * …}}}, Binary as base64). The signature covers the fields {@link #stringToSign} lists, none of
 * them per subscription, so one signature serves every copy of a message. Stateless.
 */
public final class Envelope {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Envelope() {}

  /** How a notification is signed: the version, the signature and where its certificate is; null: unsigned. */
  public record Signed(String version, String signature, String certificateUrl) {}

  /**
   * A notification of {@code message} (the text this subscription's protocol receives) for the
   * subscription {@code subscriptionArn}; {@code sequenceNumber} and {@code signed} are null on
   * FIFO topics.
   */
  public static String notification(String messageId, String sequenceNumber, String topicArn, String subject,
      String message, long timestampMillis, Signed signed, String baseUrl, String subscriptionArn,
      Map<String, MessageAttributeValue> attributes) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("Type", "Notification");
    out.put("MessageId", messageId);
    if (sequenceNumber != null) {
      out.put("SequenceNumber", sequenceNumber);
    }
    out.put("TopicArn", topicArn);
    if (subject != null) {
      out.put("Subject", subject);
    }
    out.put("Message", message);
    out.put("Timestamp", timestamp(timestampMillis));
    if (signed != null) {
      out.put("SignatureVersion", signed.version());
      out.put("Signature", signed.signature());
      out.put("SigningCertURL", signed.certificateUrl());
    }
    out.put("UnsubscribeURL", unsubscribeUrl(baseUrl, subscriptionArn));
    if (!attributes.isEmpty()) {
      Map<String, Object> attrs = new LinkedHashMap<>();
      attributes.forEach((name, v) -> {
        Map<String, Object> typed = new LinkedHashMap<>();
        typed.put("Type", v.dataType());
        typed.put("Value", v.binaryValue() != null ? Base64.getEncoder().encodeToString(v.binaryValue())
            : v.stringValue());
        attrs.put(name, typed);
      });
      out.put("MessageAttributes", attrs);
    }
    return JsonText.write(out);
  }

  /**
   * What a Notification's signature covers (SNS Developer Guide: Verifying the signatures of Amazon
   * SNS messages): the names and values of Message, MessageId, Subject (when given), Timestamp,
   * TopicArn and Type, each followed by a newline, in that order.
   */
  public static String stringToSign(String messageId, String topicArn, String subject, String message,
      long timestampMillis) {
    StringBuilder b = new StringBuilder(message.length() + 256);
    b.append("Message\n").append(message).append('\n');
    b.append("MessageId\n").append(messageId).append('\n');
    if (subject != null) {
      b.append("Subject\n").append(subject).append('\n');
    }
    b.append("Timestamp\n").append(timestamp(timestampMillis)).append('\n');
    b.append("TopicArn\n").append(topicArn).append('\n');
    b.append("Type\n").append("Notification").append('\n');
    return b.toString();
  }

  /**
   * The SubscriptionConfirmation an HTTP/HTTPS endpoint is sent when subscribed (SNS Developer
   * Guide: HTTP/HTTPS subscription confirmation JSON format), its keys in AWS's order.
   */
  public static String confirmation(String messageId, String token, String topicArn, String subscribeUrl,
      long timestampMillis, Signed signed) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("Type", "SubscriptionConfirmation");
    out.put("MessageId", messageId);
    out.put("Token", token);
    out.put("TopicArn", topicArn);
    out.put("Message", confirmationMessage(topicArn));
    out.put("SubscribeURL", subscribeUrl);
    out.put("Timestamp", timestamp(timestampMillis));
    out.put("SignatureVersion", signed.version());
    out.put("Signature", signed.signature());
    out.put("SigningCertURL", signed.certificateUrl());
    return JsonText.write(out);
  }

  /**
   * What a SubscriptionConfirmation's signature covers: Message, MessageId, SubscribeURL,
   * Timestamp, Token, TopicArn and Type, each name and value followed by a newline.
   */
  public static String confirmationToSign(String messageId, String token, String topicArn, String subscribeUrl,
      long timestampMillis) {
    return "Message\n" + confirmationMessage(topicArn) + "\nMessageId\n" + messageId + "\nSubscribeURL\n" + subscribeUrl
        + "\nTimestamp\n" + timestamp(timestampMillis) + "\nToken\n" + token + "\nTopicArn\n" + topicArn
        + "\nType\nSubscriptionConfirmation\n";
  }

  /** AWS's text of a SubscriptionConfirmation (recorded). */
  static String confirmationMessage(String topicArn) {
    return "You have chosen to subscribe to the topic " + topicArn
        + ".\nTo confirm the subscription, visit the SubscribeURL included in this message.";
  }

  /** Where an HTTP/HTTPS subscriber confirms: an SNS ConfirmSubscription on this server. */
  public static String subscribeUrl(String baseUrl, String topicArn, String token) {
    return baseUrl + "/?Action=ConfirmSubscription&TopicArn=" + topicArn + "&Token=" + token;
  }

  /** ISO-8601 in UTC with milliseconds, as SNS writes {@code Timestamp}. */
  static String timestamp(long millis) {
    return TIMESTAMP.format(Instant.ofEpochMilli(millis));
  }

  /** Where a subscriber unsubscribes: an SNS Unsubscribe on this server. */
  static String unsubscribeUrl(String baseUrl, String subscriptionArn) {
    return baseUrl + "/?Action=Unsubscribe&SubscriptionArn=" + subscriptionArn;
  }
}
