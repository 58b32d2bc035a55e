package dev.sluice.topics;

import dev.sluice.api.topics.SnsException;

/**
 * Topic names (SNS API reference: CreateTopic): 1 to 256 ASCII letters, digits, underscores and
 * hyphens; a FIFO topic's ends in {@code .fifo}, which counts towards the 256. Stateless.
 */
public final class TopicNames {
  static final String FIFO_SUFFIX = ".fifo";
  static final int MAX_LENGTH = 256;

  private TopicNames() {}

  /** Whether {@code name} may name a topic, standard or FIFO. */
  public static boolean isValid(String name) {
    String stem = name.endsWith(FIFO_SUFFIX) ? name.substring(0, name.length() - FIFO_SUFFIX.length()) : name;
    return !stem.isEmpty() && name.length() <= MAX_LENGTH && stem.chars().allMatch(TopicNames::allowed);
  }

  public static boolean isFifo(String name) {
    return name.endsWith(FIFO_SUFFIX);
  }

  /**
   * Checks a new topic's name against its FifoTopic attribute: a FIFO topic's name ends in .fifo
   * and a standard topic's does not; SNS answers every mismatch as an invalid name (AWS-recorded).
   */
  static void check(String name, boolean fifo) {
    if (!isValid(name) || fifo != isFifo(name)) {
      throw SnsException.invalidParameter("Topic Name");
    }
  }

  private static boolean allowed(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  }
}
