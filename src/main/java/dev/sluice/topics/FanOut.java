package dev.sluice.topics;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.QueueKey;
import dev.sluice.api.RelaySend;
import dev.sluice.api.topics.TopicNotification;
import dev.sluice.model.Digests;
import dev.sluice.model.NewMessage;
import dev.sluice.topics.filter.FilterAttribute;
import dev.sluice.topics.filter.FilterPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one publish makes: for each confirmed subscription whose filter policy accepts it, in the
 * order the subscriptions were made, the message its subscriber receives (the envelope, or the raw
 * message): a copy for a queue (the SNS attributes as SQS attributes and, for a FIFO queue, the
 * publish's message group and deduplication id), or a notification for an HTTP/HTTPS endpoint. Pure.
 */
public final class FanOut {
  /** The SenderId SQS shows for messages SNS delivered (AWS's SNS service identity). */
  public static final String SENDER_ID = "AIDAIT2UOQQY3AUEKVGXU";

  private FanOut() {}

  /**
   * One copy for one queue subscriber; {@code deadLetterArn} (or null) takes it when the queue is
   * gone; {@code relayed} is the outbox row it was published for, or null.
   */
  public record Copy(QueueKey queue, String subscriptionArn, NewMessage message, String deadLetterArn,
      RelaySend.Row relayed) {}

  /** One notification for one HTTP/HTTPS subscriber: the body it is posted, and whether that is the raw message. */
  public record Notification(SubscriptionState subscription, String messageId, String body, boolean raw) {}

  /** One accepted publish: what was published and how it is known; {@code relayed}: its outbox row, or null. */
  public record Published(String messageId, String sequenceNumber, long timestampMillis, String baseUrl,
      PublishContent content, String deduplicationId, RelaySend.Row relayed) {}

  /**
   * A subscription that takes a publish, as it was when the publish was accepted: its queue, or null
   * for an HTTP/HTTPS subscription.
   */
  public record Target(SubscriptionState subscription, QueueKey queue, boolean raw, String message) {
    String subscriptionArn() {
      return subscription.arn();
    }
  }

  /** The subscriptions of {@code topic} whose filter policies accept {@code p}, in subscription order. */
  public static List<Target> targets(TopicState topic, Published p) {
    PublishContent c = p.content();
    Map<String, FilterAttribute> filterView = filterView(c.attributes());
    List<Target> out = new ArrayList<>();
    for (SubscriptionState s : topic.subscriptions()) {
      if (s.pending()) {
        continue; // an HTTP subscription receives nothing until it is confirmed
      }
      String message = c.messageFor(s.protocol());
      FilterPolicy filter = s.attributes().filter();
      if (filter == null || filter.accepts(filterView, message)) {
        QueueKey queue = SubscriptionEndpoints.isHttp(s.protocol()) ? null : SubscriptionEndpoints.queueArn(s.endpoint());
        out.add(new Target(s, queue, s.attributes().raw(), message));
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
   * The copies of {@code p} for the queue subscribers among {@code targets}; {@code signatures}
   * holds the signature of each message {@link #textsToSign} listed, by message, and
   * {@code certificateUrl} where their certificate is.
   */
  public static List<Copy> copies(TopicState topic, Published p, List<Target> targets, Map<String, String> signatures,
      String certificateUrl) {
    PublishContent c = p.content();
    List<Copy> out = new ArrayList<>(targets.size());
    for (Target t : targets) {
      if (t.queue() == null) {
        continue;
      }
      boolean fifoQueue = t.queue().name().endsWith(".fifo");
      Map<String, MessageAttributeValue> attributes = t.raw() && !c.attributes().isEmpty()
          ? new LinkedHashMap<>(c.attributes()) : null;
      out.add(new Copy(t.queue(), t.subscriptionArn(), new NewMessage(body(topic, p, t, signatures, certificateUrl),
          null, attributes, null, fifoQueue ? p.deduplicationId() : null, fifoQueue ? c.groupId() : null, SENDER_ID,
          null), t.subscription().attributes().deadLetterArn(), p.relayed()));
    }
    return out;
  }

  /** The notifications of {@code p} for the HTTP/HTTPS subscribers among {@code targets}, as {@link #copies}. */
  public static List<Notification> notifications(TopicState topic, Published p, List<Target> targets,
      Map<String, String> signatures, String certificateUrl) {
    List<Notification> out = new ArrayList<>();
    for (Target t : targets) {
      if (t.queue() == null) {
        out.add(new Notification(t.subscription(), p.messageId(), body(topic, p, t, signatures, certificateUrl),
            t.raw()));
      }
    }
    return out;
  }

  private static String body(TopicState topic, Published p, Target t, Map<String, String> signatures,
      String certificateUrl) {
    if (t.raw()) {
      return t.message();
    }
    PublishContent c = p.content();
    String signature = signatures.get(t.message());
    return Envelope.notification(p.messageId(), p.sequenceNumber(), topic.arn(), c.subject(), t.message(),
        p.timestampMillis(), signature == null ? null
            : new Envelope.Signed(topic.attributes().signatureVersion(), signature, certificateUrl),
        p.baseUrl(), t.subscriptionArn(), c.attributes());
  }

  /**
   * Gives {@code p} to each push subscriber of {@code topic} whose filter policy accepts it (the
   * message of the {@code default} key, as any protocol without a key of its own receives).
   */
  public static void push(TopicState topic, Published p) {
    if (topic.listeners().isEmpty()) {
      return;
    }
    PublishContent c = p.content();
    Map<String, FilterAttribute> filterView = filterView(c.attributes());
    TopicNotification n = new TopicNotification(p.messageId(), p.sequenceNumber(), topic.arn(), c.subject(),
        c.message(), Envelope.timestamp(p.timestampMillis()), c.attributes());
    for (TopicListener l : List.copyOf(topic.listeners())) {
      if (l.filter() == null || l.filter().accepts(filterView, c.message())) {
        l.sink().accept(n);
      }
    }
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
