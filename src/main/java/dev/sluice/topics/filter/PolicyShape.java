package dev.sluice.topics.filter;

import java.util.List;
import java.util.Map;

/**
 * The checks AWS makes on a policy's shape before it looks at any match expression: at most five
 * top-level keys, every key holding an object (a nested key, body scope only) or a non-empty
 * array, {@code $or} holding objects, and a complexity of at most 150.
 *
 * <p>Complexity as AWS counts it (its constraints page and the cases recorded against AWS): the
 * product over keys of the number of values times the key's nesting depth; an {@code $or} adds
 * its branches up, each branch multiplying what came before it.
 */
final class PolicyShape {
  static final int MAX_KEYS = 5;
  static final int MAX_COMBINATIONS = 150;

  private final FilterPolicyScope scope;

  private PolicyShape(FilterPolicyScope scope) {
    this.scope = scope;
  }

  static void check(Map<String, Object> policy, FilterPolicyScope scope) {
    if (policy.size() > MAX_KEYS) {
      throw FilterPolicyException.policy("Filter policy can not have more than 5 keys");
    }
    long combinations = new PolicyShape(scope).walk(policy, 1, 1);
    if (combinations > MAX_COMBINATIONS) {
      throw FilterPolicyException.policy("Filter policy is too complex");
    }
  }

  /** Whether a {@code $or} entry is the OR operator rather than a key that happens to be named so. */
  static boolean isOr(String key, Object value) {
    return key.equals("$or") && value instanceof List<?> l && !l.isEmpty()
        && l.stream().allMatch(b -> b instanceof Map);
  }

  /** Returns the combinations counted so far after this object's keys. */
  private long walk(Map<?, ?> object, int depth, long combinations) {
    for (Map.Entry<?, ?> e : object.entrySet()) {
      String key = String.valueOf(e.getKey());
      Object value = e.getValue();
      if (isOr(key, value)) {
        long sum = 0;
        for (Object branch : (List<?>) value) {
          sum += walk((Map<?, ?>) branch, depth, combinations);
        }
        combinations = Math.min(sum, Long.MAX_VALUE / 4);
      } else if (value instanceof Map<?, ?> nested) {
        combinations = walk(nested, depth + 1, combinations);
      } else if (value instanceof List<?> values) {
        if (values.isEmpty()) {
          throw FilterPolicyException.policy("Empty arrays are not allowed");
        }
        // Capped so that a huge policy cannot overflow into a small count.
        combinations = Math.min(combinations * values.size() * depth, Long.MAX_VALUE / 1024);
      } else {
        throw FilterPolicyException.policy("\"" + key + "\" must be an object or an array");
      }
    }
    if (scope == FilterPolicyScope.MESSAGE_ATTRIBUTES && depth > 1) {
      throw new FilterPolicyException("Filter policy scope MessageAttributes does not support nested filter policy");
    }
    return combinations;
  }
}
