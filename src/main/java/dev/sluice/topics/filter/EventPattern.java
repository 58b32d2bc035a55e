package dev.sluice.topics.filter;

import dev.sluice.model.JsonText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An event filter pattern of a Lambda event source mapping (AWS Lambda Developer Guide: "Control
 * which events Lambda sends to your function", "Filtering Amazon SQS events"), compiled on the
 * matcher of SNS filter policies: the same rules (exact values, prefix, suffix, equals-ignore-case,
 * anything-but, numeric, exists; a list is OR, keys are AND, an array in the record matches when an
 * element does), read against a record nested as the event gives it ({@code {"body": {"kind":
 * ["refund"]}}}). What differs from a filter policy: no limit on keys or combinations (a pattern is
 * at most 4,096 characters), no {@code $or} and no {@code cidr} (Lambda documents neither), and one
 * answer for every invalid pattern, AWS's "Invalid filter pattern definition." Immutable.
 */
public final class EventPattern {
  /** The longest pattern (AWS Lambda API reference: Filter, Pattern). */
  public static final int MAX_LENGTH = 4_096;
  static final String INVALID = "Invalid filter pattern definition.";

  private final Condition condition;

  private EventPattern(Condition condition) {
    this.condition = condition;
  }

  /** Compiles {@code json}; IllegalArgumentException with AWS's text when Lambda would refuse it. */
  public static EventPattern parse(String json) {
    if (json == null || json.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(INVALID);
    }
    Map<String, Object> pattern = JsonText.parseObject(json);
    if (pattern == null || pattern.isEmpty()) {
      throw new IllegalArgumentException(INVALID);
    }
    try {
      checkShape(pattern);
      return new EventPattern(PolicyCompiler.compile(pattern));
    } catch (FilterPolicyException refused) {
      throw new IllegalArgumentException(INVALID, refused);
    }
  }

  /** Keys hold a nested pattern or a non-empty list of rules; no $or, no cidr. */
  private static void checkShape(Map<?, ?> pattern) {
    for (Map.Entry<?, ?> e : pattern.entrySet()) {
      if (String.valueOf(e.getKey()).equals("$or")) {
        throw FilterPolicyException.policy("$or is not an event pattern operator");
      }
      Object value = e.getValue();
      if (value instanceof Map<?, ?> nested && !nested.isEmpty()) {
        checkShape(nested);
      } else if (value instanceof List<?> rules && !rules.isEmpty()) {
        for (Object rule : rules) {
          if (rule instanceof Map<?, ?> expression && expression.containsKey("cidr")) {
            throw FilterPolicyException.policy("cidr is not an event pattern operator");
          }
          RuleCompiler.compile(rule);
        }
      } else {
        throw FilterPolicyException.policy("a key must hold a pattern or a list of rules");
      }
    }
  }

  /**
   * Whether a record matches: {@code record} is its values as the event nests them, with its
   * {@code body} parsed when it is JSON (a body that is not JSON is its string, which only a rule
   * right under {@code body} can match).
   */
  public boolean matches(Map<String, Object> record) {
    return condition.matches(BodyValues.of(record));
  }

  /** A body as a pattern reads it: the JSON object or array it holds, else the string itself. */
  public static Object bodyValue(String body) {
    if (body != null) {
      String t = body.strip();
      if (t.startsWith("{") || t.startsWith("[")) {
        try {
          return JsonText.parse(t);
        } catch (IllegalArgumentException notJson) {
          return body;
        }
      }
    }
    return body;
  }

  /** Whether any of {@code patterns} matches (a record passes a trigger's FilterCriteria then). */
  public static boolean anyMatches(List<EventPattern> patterns, Map<String, Object> record) {
    for (EventPattern p : patterns) {
      if (p.matches(record)) {
        return true;
      }
    }
    return patterns.isEmpty();
  }

  /** The patterns of a trigger's FilterCriteria: at most five. */
  public static List<EventPattern> parseAll(List<String> patterns) {
    if (patterns.size() > 5) {
      throw new IllegalArgumentException(INVALID);
    }
    List<EventPattern> out = new ArrayList<>();
    for (String p : patterns) {
      out.add(parse(p));
    }
    return List.copyOf(out);
  }
}
