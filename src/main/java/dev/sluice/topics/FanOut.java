package dev.sluice.topics;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.QueueKey;
import dev.sluice.model.Digests;
import dev.sluice.model.NewMessage;
import dev.sluice.topics.filter.FilterAttribute;
import dev.sluice.topics.filter.FilterPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The copies one publish makes: one per subscription whose filter policy accepts it, in the order
 * the subscriptions were made, each the message its subscriber receives (the envelope, or the raw
 * message with the SNS attributes as SQS attributes) and, for a FIFO queue, the publish's message
 * group and deduplication id. Pure.
 */
public final class FanOut {
  /** The SenderId SQS shows for messages SNS delivered (AWS's SNS service identity). */
  public static final String SENDER_ID = "AIDAIT2UOQQY3AUEKVGXU";

  private FanOut() {}

  /** One copy for one queue subscriber. */
  public record Copy(QueueKey queue, String subscriptionArn, NewMessage message) {}

  /** One accepted publish: what was published and how it is known. */
  public record Published(String messageId, String sequenceNumber, long timestampMillis, String baseUrl,
      PublishContent content, String deduplicationId) {}

  /** A subscription that takes a publish, as it was when the publish was accepted. */
  public record Target(String subscriptionArn, QueueKey queue, boolean raw, String message) {}

  /** The subscriptions of {@code topic} whose filter policies accept {@code p}, in subscription order. */
  public static List<Target> targets(TopicState topic, Published p) {
    PublishContent c = p.content();
    Map<String, FilterAttribute> filterView = filterView(c.attributes());
    List<Target> out = new ArrayList<>();
    for (SubscriptionState s : topic.subscriptions()) {
      String message = c.messageFor(s.protocol());
      FilterPolicy filter = s.attributes().filter();
      if (filter == null || filter.accepts(filterView, message)) {
        out.add(new Target(s.arn(), SubscriptionEndpoints.queueArn(s.endpoint()), s.attributes().raw(), message));
      }
    }
    return out;
  }

  /**
   * The texts to sign for {@code targets}, by message: one per distinct message an envelope
   * carries, none on a FIFO topic (whose envelopes AWS does not sign) or for raw deliveries.
   */
  public static Map<String, String> textsToSign(TopicState topic, Published p, List<Target> targets) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!topic.fifo()) {
      for (Target t : targets) {
        if (!t.raw()) {
          out.computeIfAbsent(t.message(), m -> Envelope.stringToSign(p.messageId(), topic.arn(),
              p.content().subject(), m, p.timestampMillis()));
        }
      }
    }
    return out;
  }

  /**
   * The copies of {@code p} for {@code targets}; {@code signatures} holds the signature of each
   * message {@link #textsToSign} listed, by message, and {@code certificateUrl} where their
   * certificate is.
   */
  public static List<Copy> copies(TopicState topic, Published p, List<Target> targets, Map<String, String> signatures,
      String certificateUrl) {
    PublishContent c = p.content();
    String version = topic.attributes().signatureVersion();
    List<Copy> out = new ArrayList<>(targets.size());
    for (Target t : targets) {
      boolean fifoQueue = t.queue().name().endsWith(".fifo");
      String signature = signatures.get(t.message());
      String body = t.raw() ? t.message() : Envelope.notification(p.messageId(), p.sequenceNumber(), topic.arn(),
          c.subject(), t.message(), p.timestampMillis(),
          signature == null ? null : new Envelope.Signed(version, signature, certificateUrl), p.baseUrl(),
          t.subscriptionArn(), c.attributes());
      Map<String, MessageAttributeValue> attributes = t.raw() && !c.attributes().isEmpty()
          ? new LinkedHashMap<>(c.attributes()) : null;
      out.add(new Copy(t.queue(), t.subscriptionArn(), new NewMessage(body, null, attributes, null,
          fifoQueue ? p.deduplicationId() : null, fifoQueue ? c.groupId() : null, SENDER_ID, null)));
    }
    return out;
  }

  /** A FIFO topic's deduplication id of a publish: the one given, else the SHA-256 of its message. */
  public static String deduplicationIdOf(PublishContent c) {
    return c.deduplicationId() != null ? c.deduplicationId() : Digests.sha256Hex(c.message());
  }

  /** The attributes as a filter policy reads them: Binary ones have no value it can match. */
  static Map<String, FilterAttribute> filterView(Map<String, MessageAttributeValue> attributes) {
    Map<String, FilterAttribute> out = new LinkedHashMap<>();
    attributes.forEach((name, v) -> out.put(name, new FilterAttribute(v.dataType(), v.stringValue())));
    return out;
  }
}
