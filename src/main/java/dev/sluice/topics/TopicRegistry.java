package dev.sluice.topics;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.MemoryBudget;
import dev.sluice.model.QueueLimit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The topics of one shard, of every account and region, by key. Creating one takes a slot of the
 * server-wide topic limit (a {@link QueueLimit} counting topics, shared by every shard as the
 * queue limit is), deleting one gives it back. Owned by the shard's event loop; pure, with the
 * time passed in.
 */
public final class TopicRegistry {
  private final Map<TopicKey, TopicState> topics = new HashMap<>();
  private final QueueLimit limit;
  private final MemoryBudget budget;

  /** {@code budget}: the shard's share of the server's memory budget, which topics are charged to. */
  public TopicRegistry(QueueLimit limit, MemoryBudget budget) {
    this.limit = limit;
    this.budget = budget;
  }

  /**
   * CreateTopic (its page in the SNS API reference): the existing topic when the given attributes
   * and tags agree with it, else a new one; InvalidParameter when they differ (AWS-recorded
   * texts), TopicLimitExceeded at the server's limit.
   */
  public TopicState create(TopicKey key, Map<String, String> attributes, Map<String, String> tags, long nowMillis) {
    boolean fifo = TopicAttributes.fifoOf(attributes);
    TopicNames.check(key.name(), fifo);
    TopicState existing = topics.get(key);
    if (existing != null) {
      if (existing.attributes().firstDifference(attributes, key) != null) {
        throw SnsException.invalidParameter("Attributes", "Topic already exists with different attributes");
      }
      if (!existing.tags().includes(tags)) {
        throw SnsException.invalidParameter("Tags", "Topic already exists with different tags");
      }
      return existing;
    }
    TopicState t = new TopicState(key, budget, ThreadLocalRandom.current().nextLong(), nowMillis,
        TopicAttributes.create(fifo, attributes));
    t.charge(t.ownBytes());
    if (tags != null && !tags.isEmpty()) {
      try {
        t.tag(tags);
      } catch (RuntimeException refused) {
        t.releaseAll();
        throw refused;
      }
    }
    // Taken last, once nothing else can refuse the topic: a refused one must not hold a slot.
    if (!limit.tryTake()) {
      t.releaseAll();
      throw new SnsException(SnsErrorCode.TOPIC_LIMIT_EXCEEDED, "Topic limit exceeded");
    }
    topics.put(key, t);
    return t;
  }

  /**
   * A topic as PostgreSQL gave it back at start-up, with its generation; it takes its slot of the
   * limit whatever the limit (it exists already).
   */
  public TopicState restore(TopicKey key, long generation, long createdAtMillis, Map<String, String> attributes,
      Map<String, String> tags) {
    TopicState t = new TopicState(key, budget, generation, createdAtMillis,
        TopicAttributes.create(TopicAttributes.fifoOf(attributes), attributes));
    if (!tags.isEmpty()) {
      t.tags().tag(tags);
    }
    t.chargeAnyway(t.ownBytes());
    limit.take();
    topics.put(key, t);
    return t;
  }

  /** The topic, or null. */
  public TopicState find(TopicKey key) {
    return topics.get(key);
  }

  /** The topic, or NotFound ("Topic does not exist"). */
  public TopicState get(TopicKey key) {
    TopicState t = topics.get(key);
    if (t == null) {
      throw SnsException.topicNotFound();
    }
    return t;
  }

  /** DeleteTopic: true when there was one (deleting a topic that is gone succeeds, as at AWS). */
  public boolean delete(TopicKey key) {
    TopicState t = topics.remove(key);
    if (t == null) {
      return false;
    }
    t.releaseAll();
    limit.release();
    return true;
  }

  /** Every topic here. */
  public java.util.Collection<TopicState> all() {
    return topics.values();
  }

  /** The topics of {@code place} here, unsorted. */
  public List<TopicState> of(AccountRegion place) {
    List<TopicState> out = new ArrayList<>();
    for (TopicState t : topics.values()) {
      if (t.key().accountId().equals(place.accountId()) && t.key().region().equals(place.region())) {
        out.add(t);
      }
    }
    return out;
  }

  /** The ARNs of the topics of {@code place} here, unsorted. */
  public List<String> arns(AccountRegion place) {
    List<String> out = new ArrayList<>();
    for (TopicKey k : topics.keySet()) {
      if (k.accountId().equals(place.accountId()) && k.region().equals(place.region())) {
        out.add(k.arn());
      }
    }
    return out;
  }

  public int size() {
    return topics.size();
  }
}
