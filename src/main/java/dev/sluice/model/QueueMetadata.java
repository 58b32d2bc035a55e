package dev.sluice.model;

import dev.sluice.api.Limits;
import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A queue's identity (its key: account, region and name), attributes and tags. The generation is
 * random per queue creation, so a receipt handle of a deleted queue never works on a new queue of
 * the same name. Owned by the shard event loop that owns the queue.
 */
public final class QueueMetadata {
  private final QueueKey key;
  private final String arn;
  private final long generation;
  private final long createdAtMillis;
  private long lastModifiedAtMillis;
  private QueueAttributes attributes;
  /** A Sluice extension kept beside the attributes, never shown as one; null when the queue has none. */
  private RedeliveryBackoff redeliveryBackoff;
  private final Map<String, String> tags = new TreeMap<>();

  public QueueMetadata(QueueKey key, long generation, long createdAtMillis, QueueAttributes attributes) {
    this.key = key;
    this.arn = QueueArns.arnOf(key);
    this.generation = generation;
    this.createdAtMillis = createdAtMillis;
    this.lastModifiedAtMillis = createdAtMillis;
    this.attributes = attributes;
  }

  public QueueKey key() {
    return key;
  }

  public String name() {
    return key.name();
  }

  public String arn() {
    return arn;
  }

  public long generation() {
    return generation;
  }

  public long createdAtMillis() {
    return createdAtMillis;
  }

  public long lastModifiedAtMillis() {
    return lastModifiedAtMillis;
  }

  public QueueAttributes attributes() {
    return attributes;
  }

  void setAttributes(QueueAttributes attributes, long nowMillis) {
    this.attributes = attributes;
    this.lastModifiedAtMillis = nowMillis;
  }

  /** The queue's redelivery backoff, or null (every expired visibility shows the message at once). */
  public RedeliveryBackoff redeliveryBackoff() {
    return redeliveryBackoff;
  }

  /**
   * Sets or (null) removes the redelivery backoff; messages already waiting one keep their wait.
   * LastModifiedTimestamp stays: it tells of SQS attributes, and this is none.
   */
  void setRedeliveryBackoff(RedeliveryBackoff policy) {
    this.redeliveryBackoff = policy;
  }

  /** A copy: the caller may read it on another event loop while the shard changes the tags. */
  public Map<String, String> tags() {
    return Collections.unmodifiableMap(new TreeMap<>(tags));
  }

  /** Adds or overwrites tags after checking the tag rules on the combined set (AWS API reference: TagQueue). */
  public void tag(Map<String, String> newTags) {
    TagRules.check(newTags);
    Map<String, String> combined = new TreeMap<>(tags);
    combined.putAll(newTags);
    if (combined.size() > Limits.MAX_TAGS) {
      throw SqsException.invalidParameter(
          "Too many tags added for queue " + key.name() + ": a queue can have at most 50 tags.");
    }
    tags.putAll(newTags);
  }

  public void untag(Iterable<String> keys) {
    for (String k : keys) {
      tags.remove(k);
    }
  }
}
