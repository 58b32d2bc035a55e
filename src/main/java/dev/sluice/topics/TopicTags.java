package dev.sluice.topics;

import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A topic's tags (SNS API reference: TagResource, UntagResource; Amazon SNS quotas): at most 50,
 * keys of 1 to 128 and values of 0 to 256 Unicode letters, digits, white space or
 * {@code _ . : / = + - @}, no key starting with {@code aws:}. Owned by the topic's shard loop.
 */
public final class TopicTags {
  static final int MAX_TAGS = 50;
  static final int MAX_KEY_LENGTH = 128;
  static final int MAX_VALUE_LENGTH = 256;

  private final Map<String, String> tags = new LinkedHashMap<>();

  /** Adds {@code more}, overwriting values of keys it has; nothing changes when one is refused. */
  public void tag(Map<String, String> more) {
    check(more);
    Map<String, String> next = new LinkedHashMap<>(tags);
    next.putAll(more);
    if (next.size() > MAX_TAGS) {
      throw new SnsException(SnsErrorCode.TAG_LIMIT_EXCEEDED,
          "Could not complete request: tag quota of per resource exceeded");
    }
    tags.putAll(more);
  }

  public void untag(List<String> keys) {
    keys.forEach(tags::remove);
  }

  /** Whether every one of {@code given} is a tag here with that value (CreateTopic of an existing topic). */
  public boolean includes(Map<String, String> given) {
    return given == null || given.entrySet().stream().allMatch(e -> e.getValue().equals(tags.get(e.getKey())));
  }

  /** The characters the tags hold, for the memory they take. */
  long textLength() {
    long n = 0;
    for (Map.Entry<String, String> e : tags.entrySet()) {
      n += e.getKey().length() + e.getValue().length();
    }
    return n;
  }

  /** What {@link #tag} would leave: these tags with {@code more} laid over them (nothing changes here). */
  Map<String, String> with(Map<String, String> more) {
    Map<String, String> next = new LinkedHashMap<>(tags);
    next.putAll(more);
    return next;
  }

  public Map<String, String> asMap() {
    return Map.copyOf(tags);
  }

  /** In the order the keys were first set. */
  public Map<String, String> ordered() {
    return new LinkedHashMap<>(tags);
  }

  private static void check(Map<String, String> given) {
    for (Map.Entry<String, String> e : given.entrySet()) {
      String key = e.getKey();
      String value = e.getValue() == null ? "" : e.getValue();
      if (key.isEmpty() || key.length() > MAX_KEY_LENGTH || !allowed(key)) {
        throw SnsException.invalidParameter("Tags", "Tag key " + key + " is invalid: keys are 1 to 128 Unicode"
            + " letters, digits, white space or _ . : / = + - @ characters.");
      }
      if (key.regionMatches(true, 0, "aws:", 0, 4)) {
        throw SnsException.invalidParameter("Tags", "Tag key " + key + " is invalid: the aws: prefix is reserved.");
      }
      if (value.length() > MAX_VALUE_LENGTH || !allowed(value)) {
        throw SnsException.invalidParameter("Tags", "Tag value for key " + key + " is invalid: values are 0 to"
            + " 256 Unicode letters, digits, white space or _ . : / = + - @ characters.");
      }
    }
  }

  private static boolean allowed(String s) {
    return s.codePoints()
        .allMatch(c -> Character.isLetterOrDigit(c) || Character.isWhitespace(c) || "_.:/=+-@".indexOf(c) >= 0);
  }
}
