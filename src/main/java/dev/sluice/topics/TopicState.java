package dev.sluice.topics;

import dev.sluice.api.topics.TopicKey;
import java.util.Map;

/**
 * One topic as its shard holds it: its key, generation (a random id telling this topic from an
 * earlier one of the same name), kind, attributes and tags. Owned by its shard's event loop.
 */
public final class TopicState {
  private final TopicKey key;
  private final long generation;
  private final long createdAtMillis;
  private TopicAttributes attributes;
  private final TopicTags tags = new TopicTags();

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
    return attributes.view(key, 0, 0, 0);
  }
}
