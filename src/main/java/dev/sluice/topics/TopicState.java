package dev.sluice.topics;

import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.SubscriptionSummary;
import dev.sluice.api.topics.TopicKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One topic as its shard holds it: its key, generation (a random id telling this topic from an
 * earlier one of the same name), kind, attributes, tags and subscriptions (in the order they were
 * made, which is the order a publish delivers in). Owned by its shard's event loop.
 */
public final class TopicState {
  private final TopicKey key;
  private final long generation;
  private final long createdAtMillis;
  private TopicAttributes attributes;
  private final TopicTags tags = new TopicTags();
  private final Map<String, SubscriptionState> subscriptions = new LinkedHashMap<>();
  /** FIFO topics: the publishes of the last five minutes, by deduplication key. */
  private final TopicDeduplication deduplication = new TopicDeduplication();
  /** FIFO topics: the last sequence number given. */
  private long lastSequence;
  /** Counts for the metrics, since this topic was made (or loaded). */
  private long published;
  private long delivered;
  private long filteredOut;
  private long failed;

  TopicState(TopicKey key, long generation, long createdAtMillis, TopicAttributes attributes) {
    this.key = key;
    this.generation = generation;
    this.createdAtMillis = createdAtMillis;
    this.attributes = attributes;
  }

  public TopicKey key() {
    return key;
  }

  public String arn() {
    return key.arn();
  }

  public long generation() {
    return generation;
  }

  public long createdAtMillis() {
    return createdAtMillis;
  }

  public boolean fifo() {
    return attributes.fifo();
  }

  public TopicAttributes attributes() {
    return attributes;
  }

  /** SetTopicAttributes: one attribute set, or cleared when {@code value} is null. */
  public void setAttribute(String name, String value) {
    attributes = attributes.with(name, value);
  }

  public TopicTags tags() {
    return tags;
  }

  /** GetTopicAttributes. */
  public Map<String, String> attributeView() {
    return attributes.view(key, subscriptions.size(), 0, 0);
  }

  /**
   * Subscribe: a new subscription of {@code protocol} to {@code endpoint}, or the existing one of
   * that pair when its attributes are the same ("Subscription already exists with different
   * attributes" otherwise, AWS-recorded); SubscriptionLimitExceeded past the topic's limit.
   */
  public SubscriptionState subscribe(String protocol, String endpoint, Map<String, String> given, String owner,
      String principal, long nowMillis) {
    QueueKey queue = SubscriptionEndpoints.queueOf(protocol, endpoint, fifo());
    if (!queue.accountId().equals(key.accountId())) {
      // AWS has the other account confirm (a SubscriptionConfirmation sent into its queue); until
      // Sluice does, a topic delivers to its own account's queues only.
      throw SnsException.invalidParameter("Endpoint", "Sluice delivers to queues of the topic's own account only");
    }
    SubscriptionAttributes wanted = SubscriptionAttributes.create(given, fifo());
    for (SubscriptionState s : subscriptions.values()) {
      if (s.protocol().equals(protocol) && s.endpoint().equals(endpoint)) {
        if (!s.attributes().sameAs(wanted)) {
          throw SnsException.invalidParameter("Attributes", "Subscription already exists with different attributes");
        }
        return s;
      }
    }
    if (subscriptions.size() >= maxSubscriptions()) {
      throw new SnsException(SnsErrorCode.SUBSCRIPTION_LIMIT_EXCEEDED, "Subscription limit exceeded");
    }
    SubscriptionState s = new SubscriptionState(UUID.randomUUID().toString(), arn(), protocol, endpoint, owner,
        principal, nowMillis, wanted);
    subscriptions.put(s.id(), s);
    return s;
  }

  /** A subscription as PostgreSQL gave it back at start-up, after its topic, in the order they were made. */
  public void restoreSubscription(String id, String protocol, String endpoint, String owner, String principal,
      long createdAtMillis, Map<String, String> attributes) {
    subscriptions.put(id, new SubscriptionState(id, arn(), protocol, endpoint, owner, principal, createdAtMillis,
        SubscriptionAttributes.create(attributes, fifo())));
  }

  /** At most 100 subscriptions on a FIFO topic (AWS's quota), 10,000 on a standard one (Sluice's bound). */
  int maxSubscriptions() {
    return fifo() ? 100 : 10_000;
  }

  /** The subscription with that id, or null. */
  public SubscriptionState subscription(String id) {
    return subscriptions.get(id);
  }

  /** Unsubscribe: true when there was one. */
  public boolean unsubscribe(String id) {
    return subscriptions.remove(id) != null;
  }

  /** SetSubscriptionAttributes on one of this topic's subscriptions. */
  public void setSubscriptionAttribute(SubscriptionState s, String name, String value) {
    s.attributes(s.attributes().with(name, value, fifo()));
  }

  public Collection<SubscriptionState> subscriptions() {
    return subscriptions.values();
  }

  /** Every subscription's summary, in the order they were made. */
  public List<SubscriptionSummary> summaries() {
    List<SubscriptionSummary> out = new ArrayList<>(subscriptions.size());
    subscriptions.values().forEach(s -> out.add(s.summary()));
    return out;
  }

  /** A publish was accepted (not a duplicate): {@code targets} of its subscriptions take it, the rest filtered it out. */
  public void counted(int targets) {
    published++;
    filteredOut += subscriptions.size() - targets;
  }

  /** Copies decided: {@code stored} stored in their queues, {@code lost} dropped or not stored. */
  public void delivered(int stored, int lost) {
    delivered += stored;
    failed += lost;
  }

  /** The counts: published, delivered, filtered out, failed. */
  public long[] counts() {
    return new long[] {published, delivered, filteredOut, failed};
  }

  public TopicDeduplication deduplication() {
    return deduplication;
  }

  /** FIFO topics: the next sequence number. */
  public long nextSequence(long nowMillis) {
    // Started from the clock, as queues' are, so numbers keep rising across a re-created topic.
    lastSequence = Math.max(lastSequence + 1, nowMillis * 1_000_000L);
    return lastSequence;
  }
}
