package dev.sluice.topics;

import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.SubscriptionSummary;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.MemoryBudget;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * One topic as its shard holds it: its key, generation (a random id telling this topic from an
 * earlier one of the same name), kind, attributes, tags and subscriptions (in the order they were
 * made, which is the order a publish delivers in). What it holds is charged to the server's memory
 * budget, the one messages are charged to, so that topics, subscriptions and their policies cannot
 * take more memory than the budget allows: a change past it is refused with the retryable
 * Throttled, as a send past it is. Owned by its shard's event loop.
 */
public final class TopicState {
  /** What a topic and a subscription cost beyond their text, and per character of text held. */
  static final long TOPIC_BYTES = 2048;
  static final long SUBSCRIPTION_BYTES = 1024;
  static final long BYTES_PER_CHAR = 2;
  /** A filter policy is held compiled as well as as text. */
  static final long POLICY_BYTES_PER_CHAR = 8;

  private final TopicKey key;
  private final MemoryBudget budget;
  /** What this topic holds charged to the budget now, its subscriptions' included. */
  private long chargedBytes;
  private final long generation;
  private final long createdAtMillis;
  private TopicAttributes attributes;
  private final TopicTags tags = new TopicTags();
  private final Map<String, SubscriptionState> subscriptions = new LinkedHashMap<>();
  /** Push subscribers over the event-bus bridge, by id: in memory only. */
  private final Map<String, TopicListener> listeners = new LinkedHashMap<>();
  /** FIFO topics: the publishes of the last five minutes, by deduplication key. */
  private final TopicDeduplication deduplication = new TopicDeduplication();
  /** FIFO topics: the last sequence number given. */
  private long lastSequence;
  /** Counts for the metrics, since this topic was made (or loaded). */
  private long published;
  private long delivered;
  private long filteredOut;
  private long failed;

  TopicState(TopicKey key, MemoryBudget budget, long generation, long createdAtMillis, TopicAttributes attributes) {
    this.key = key;
    this.budget = budget;
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
    TopicAttributes next = attributes.with(name, value);
    charge(BYTES_PER_CHAR * (next.textLength() - attributes.textLength()));
    attributes = next;
  }

  /** TagResource: adds tags or overwrites their values; nothing changes when one is refused. */
  public void tag(Map<String, String> more) {
    long before = tags.textLength();
    long after = 0;
    for (Map.Entry<String, String> e : tags.with(more).entrySet()) {
      after += e.getKey().length() + (e.getValue() == null ? 0 : e.getValue().length());
    }
    charge(BYTES_PER_CHAR * (after - before));
    try {
      tags.tag(more);
    } catch (RuntimeException refused) {
      charge(BYTES_PER_CHAR * (before - after));
      throw refused;
    }
  }

  /** UntagResource. */
  public void untag(List<String> keys) {
    long before = tags.textLength();
    tags.untag(keys);
    charge(BYTES_PER_CHAR * (tags.textLength() - before));
  }

  /**
   * Charges {@code bytes} more to the budget (gives them back when negative); the retryable
   * Throttled when the budget cannot take them, having charged nothing.
   */
  void charge(long bytes) {
    if (bytes > 0 && !budget.tryCharge(bytes)) {
      throw new SnsException(SnsErrorCode.THROTTLED, "The server's memory budget (engine.memoryBudgetBytes) is full;"
          + " nothing was changed.");
    }
    if (bytes < 0) {
      budget.release(-bytes);
    }
    chargedBytes += bytes;
  }

  /** A topic loaded at start-up exists already: charged whatever the budget says. */
  void chargeAnyway(long bytes) {
    budget.chargeAnyway(bytes);
    chargedBytes += bytes;
  }

  /**
   * Holds {@code bytes} of a delivery in flight on the budget, apart from what the topic holds (a
   * delivery may outlive its topic); false, holding nothing, when the budget cannot take them.
   */
  public boolean hold(long bytes) {
    return budget.tryCharge(bytes);
  }

  /** A delivery held by {@link #hold} is decided. */
  public void unhold(long bytes) {
    budget.release(bytes);
  }

  /** The topic is deleted: everything it held goes back to the budget. */
  void releaseAll() {
    subscriptions.values().forEach(SubscriptionState::end);
    listeners.values().forEach(l -> l.ended().run());
    listeners.clear();
    budget.release(chargedBytes);
    chargedBytes = 0;
  }

  /** What this topic alone holds, without its subscriptions. */
  long ownBytes() {
    return TOPIC_BYTES + BYTES_PER_CHAR * (attributes.textLength() + tags.textLength());
  }

  static long bytesOf(String endpoint, SubscriptionAttributes a) {
    return SUBSCRIPTION_BYTES + BYTES_PER_CHAR * endpoint.length() + POLICY_BYTES_PER_CHAR * a.textLength();
  }

  public TopicTags tags() {
    return tags;
  }

  /** GetTopicAttributes. */
  public Map<String, String> attributeView() {
    int pending = (int) subscriptions.values().stream().filter(SubscriptionState::pending).count();
    return attributes.view(key, subscriptions.size() - pending, pending, 0);
  }

  /**
   * Subscribe: a new subscription of {@code protocol} to {@code endpoint}, or the existing one of
   * that pair when its attributes are the same ("Subscription already exists with different
   * attributes" otherwise, AWS-recorded); SubscriptionLimitExceeded past the topic's limit. An SQS
   * subscription is confirmed at once; an HTTP/HTTPS one waits for the token {@code token} makes.
   */
  public SubscriptionState subscribe(String protocol, String endpoint, Map<String, String> given, String owner,
      String principal, long nowMillis, Supplier<String> token) {
    QueueKey queue = SubscriptionEndpoints.check(protocol, endpoint, fifo());
    if (queue != null && !queue.accountId().equals(key.accountId())) {
      // AWS has the other account confirm (a SubscriptionConfirmation sent into its queue); until
      // Sluice does, a topic delivers to its own account's queues only.
      throw SnsException.invalidParameter("Endpoint", "Sluice delivers to queues of the topic's own account only");
    }
    SubscriptionAttributes wanted = SubscriptionAttributes.create(given, fifo(), protocol);
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
    charge(bytesOf(endpoint, wanted));
    SubscriptionState.Confirmation confirmation = queue != null ? SubscriptionState.Confirmation.BY_OWNER
        : new SubscriptionState.Confirmation(token.get(), true, false, false);
    SubscriptionState s = new SubscriptionState(UUID.randomUUID().toString(), arn(), protocol, endpoint, owner,
        principal, nowMillis, wanted, confirmation);
    subscriptions.put(s.id(), s);
    return s;
  }

  /**
   * ConfirmSubscription: the subscription {@code token} was sent to, confirmed (again: a repeated
   * confirmation answers the same, AWS-recorded), or null when no subscription of this topic has it.
   */
  public SubscriptionState confirm(String token, boolean signed, boolean authenticateOnUnsubscribe) {
    for (SubscriptionState s : subscriptions.values()) {
      if (token.equals(s.confirmation().token())) {
        if (s.pending()) {
          s.confirm(signed, authenticateOnUnsubscribe);
        }
        return s;
      }
    }
    return null;
  }

  /** The delivery policy an HTTP/HTTPS subscription of this topic follows; null for others. */
  public DeliveryPolicy deliveryPolicyOf(SubscriptionState s) {
    return SubscriptionEndpoints.isHttp(s.protocol())
        ? DeliveryPolicy.effective(attributes.get("DeliveryPolicy"), s.attributes().deliveryPolicy()) : null;
  }

  /** A subscription as PostgreSQL gave it back at start-up, after its topic, in the order they were made. */
  public void restoreSubscription(String id, String protocol, String endpoint, String owner, String principal,
      long createdAtMillis, Map<String, String> attributes, String confirmation) {
    SubscriptionAttributes a = SubscriptionAttributes.create(attributes, fifo(), protocol);
    chargeAnyway(bytesOf(endpoint, a));
    subscriptions.put(id, new SubscriptionState(id, arn(), protocol, endpoint, owner, principal, createdAtMillis, a,
        SubscriptionState.Confirmation.of(confirmation)));
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
    SubscriptionState s = subscriptions.remove(id);
    if (s == null) {
      return false;
    }
    s.end();
    charge(-bytesOf(s.endpoint(), s.attributes()));
    return true;
  }

  /** SetSubscriptionAttributes on one of this topic's subscriptions. */
  public void setSubscriptionAttribute(SubscriptionState s, String name, String value) {
    SubscriptionAttributes next = s.attributes().with(name, value, fifo(), s.protocol());
    charge(bytesOf(s.endpoint(), next) - bytesOf(s.endpoint(), s.attributes()));
    s.attributes(next);
  }

  /** A push subscriber joins (FIFO topics deliver to SQS queues only, as AWS's do). */
  public void listen(TopicListener l) {
    if (fifo()) {
      throw SnsException.invalidParameter("Protocol", "FIFO topics deliver to SQS queues only");
    }
    listeners.put(l.id(), l);
  }

  /** A push subscriber leaves; nothing when it is gone already. */
  public void unlisten(String id) {
    listeners.remove(id);
  }

  public Collection<TopicListener> listeners() {
    return listeners.values();
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
