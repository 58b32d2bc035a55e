package dev.sluice.topics.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a policy whose shape {@link PolicyShape} accepted into a {@link Condition}, compiling each
 * match expression. Nested keys become dotted paths, as AWS matches {@code {"a": {"b": [..]}}} and
 * {@code {"a.b": [..]}} alike.
 */
final class PolicyCompiler {
  private PolicyCompiler() {}

  static Condition compile(Map<?, ?> policy) {
    return object(policy, "");
  }

  private static Condition object(Map<?, ?> object, String parent) {
    List<Condition> parts = new ArrayList<>();
    for (Map.Entry<?, ?> e : object.entrySet()) {
      String key = String.valueOf(e.getKey());
      Object value = e.getValue();
      if (PolicyShape.isOr(key, value)) {
        List<Condition> branches = new ArrayList<>();
        for (Object branch : (List<?>) value) {
          branches.add(object((Map<?, ?>) branch, parent));
        }
        parts.add(new Condition.AnyOf(List.copyOf(branches)));
        continue;
      }
      String path = parent.isEmpty() ? key : parent + "." + key;
      if (value instanceof Map<?, ?> nested) {
        parts.add(object(nested, path));
      } else {
        List<ValueMatcher> matchers = new ArrayList<>();
        for (Object rule : (List<?>) value) {
          matchers.add(RuleCompiler.compile(rule));
        }
        parts.add(new Condition.Key(path, List.copyOf(matchers)));
      }
    }
    return new Condition.AllOf(List.copyOf(parts));
  }
}
