package dev.sluice.topics.filter;

import java.math.BigDecimal;
import java.util.List;

/**
 * One entry of a key's list in a policy, compiled. A key matches when any of its matchers does
 * (OR within a key); a matcher other than {@code exists} needs the key present and matches when
 * any of the key's values does, as String.Array elements and body arrays are matched element by
 * element.
 */
sealed interface ValueMatcher {

  /**
   * Whether this matcher accepts a key that is {@code present} with these values (empty when the
   * key is present but holds no value a policy can compare).
   */
  default boolean matches(boolean present, List<Object> values) {
    if (!present) {
      return false;
    }
    for (Object v : values) {
      if (matchesValue(v)) {
        return true;
      }
    }
    return false;
  }

  /** Whether one value (String, BigDecimal, Boolean or null) matches. */
  boolean matchesValue(Object value);

  /** A plain string, number, boolean or null in the policy. */
  record Exact(Object expected) implements ValueMatcher {
    @Override
    public boolean matchesValue(Object value) {
      return JsonValues.same(expected, value);
    }
  }

  /** {@code {"anything-but": v}} or {@code {"anything-but": [v, ...]}}: present and none of them. */
  record AnythingBut(List<Object> excluded) implements ValueMatcher {
    @Override
    public boolean matchesValue(Object value) {
      if (value == null) {
        return false;
      }
      for (Object e : excluded) {
        if (JsonValues.same(e, value)) {
          return false;
        }
      }
      return true;
    }
  }

  /** {@code {"anything-but": {"prefix": p}}}: a string that does not start with p. */
  record AnythingButPrefix(String prefix) implements ValueMatcher {
    @Override
    public boolean matchesValue(Object value) {
      return value instanceof String s && !s.startsWith(prefix);
    }
  }

  record Prefix(String prefix) implements ValueMatcher {
    @Override
    public boolean matchesValue(Object value) {
      return value instanceof String s && s.startsWith(prefix);
    }
  }

  record Suffix(String suffix) implements ValueMatcher {
    @Override
    public boolean matchesValue(Object value) {
      return value instanceof String s && s.endsWith(suffix);
    }
  }

  record EqualsIgnoreCase(String expected) implements ValueMatcher {
    @Override
    public boolean matchesValue(Object value) {
      return value instanceof String s && s.equalsIgnoreCase(expected);
    }
  }

  /** {@code {"numeric": [...]}}: numbers only; a string that looks like one is still a string. */
  record Numeric(NumericRange range) implements ValueMatcher {
    @Override
    public boolean matchesValue(Object value) {
      return value instanceof BigDecimal d && range.contains(d);
    }
  }

  /** {@code {"cidr": "a/n"}}: a string holding an IP address inside the block. */
  record Cidr(CidrBlock block) implements ValueMatcher {
    @Override
    public boolean matchesValue(Object value) {
      return value instanceof String s && block.contains(s);
    }
  }

  /** {@code {"exists": b}}: looks at presence only, so {@code false} matches an absent key. */
  record Exists(boolean expected) implements ValueMatcher {
    @Override
    public boolean matches(boolean present, List<Object> values) {
      return present == expected;
    }

    @Override
    public boolean matchesValue(Object value) {
      return expected;
    }
  }
}
