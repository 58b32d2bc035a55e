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
 * given), {@code Message}, {@code Timestamp}, {@code UnsubscribeURL}, {@code MessageAttributes}
 * (when any: {@code {"name": {"Type": …, "Value": …}}}, Binary as base64). Envelopes are not signed
 * yet: {@code SignatureVersion}, {@code Signature} and {@code SigningCertURL} are left out, as AWS
 * leaves them out of a FIFO topic's envelopes. Stateless.
 */
public final class Envelope {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Envelope() {}

  /**
   * A notification of {@code message} (the text this subscription's protocol receives) for the
   * subscription {@code subscriptionArn}; {@code sequenceNumber} is null on standard topics.
   */
  public static String notification(String messageId, String sequenceNumber, String topicArn, String subject,
      String message, long timestampMillis, String baseUrl, String subscriptionArn,
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

  /** ISO-8601 in UTC with milliseconds, as SNS writes {@code Timestamp}. */
  static String timestamp(long millis) {
    return TIMESTAMP.format(Instant.ofEpochMilli(millis));
  }

  /** Where a subscriber unsubscribes: an SNS Unsubscribe on this server. */
  static String unsubscribeUrl(String baseUrl, String subscriptionArn) {
    return baseUrl + "/?Action=Unsubscribe&SubscriptionArn=" + subscriptionArn;
  }
}
