package dev.sluice.topics.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compiles one entry of a key's list ({@code "a"}, {@code 5}, {@code null}, {@code {"prefix":
 * "a"}}...) into a {@link ValueMatcher}, refusing what AWS refuses with its texts.
 */
final class RuleCompiler {
  private RuleCompiler() {}

  static ValueMatcher compile(Object rule) {
    if (rule == null || rule instanceof String || rule instanceof Boolean || rule instanceof Number) {
      return new ValueMatcher.Exact(JsonValues.normalize(rule));
    }
    if (!(rule instanceof Map<?, ?> expression)) {
      throw FilterPolicyException.policy("Match value must be String, number, true, false, or null");
    }
    if (expression.size() != 1) {
      throw FilterPolicyException.policy("Only one key allowed in match expression");
    }
    Map.Entry<?, ?> only = expression.entrySet().iterator().next();
    String operator = String.valueOf(only.getKey());
    Object operand = only.getValue();
    return switch (operator) {
      case "prefix" -> new ValueMatcher.Prefix(string(operator, operand));
      case "suffix" -> new ValueMatcher.Suffix(string(operator, operand));
      case "equals-ignore-case" -> new ValueMatcher.EqualsIgnoreCase(string(operator, operand));
      case "anything-but" -> anythingBut(operand);
      case "exists" -> exists(operand);
      case "numeric" -> new ValueMatcher.Numeric(NumericRange.parse(operand));
      case "cidr" -> new ValueMatcher.Cidr(CidrBlock.parse(operand));
      default -> throw FilterPolicyException.policy("Unrecognized match type " + operator);
    };
  }

  private static String string(String operator, Object operand) {
    if (!(operand instanceof String s)) {
      throw FilterPolicyException.policy(operator + " match pattern must be a string");
    }
    return s;
  }

  private static ValueMatcher exists(Object operand) {
    if (!(operand instanceof Boolean b)) {
      throw FilterPolicyException.policy("exists match pattern must be either true or false.");
    }
    return new ValueMatcher.Exists(b);
  }

  private static ValueMatcher anythingBut(Object operand) {
    if (operand instanceof Map<?, ?> nested) {
      // AWS's SNS accepts only the prefix form here (its answer to suffix was recorded as refused).
      for (Object inner : nested.keySet()) {
        if (!"prefix".equals(inner)) {
          throw FilterPolicyException.policy("Unsupported anything-but pattern: " + inner);
        }
      }
      return new ValueMatcher.AnythingButPrefix(string("prefix", nested.get("prefix")));
    }
    if (operand instanceof List<?> values) {
      // The texts of AWS's rule parser (aws/event-ruler), which SNS's other texts come from.
      boolean hasNumber = false;
      boolean hasString = false;
      List<Object> excluded = new ArrayList<>();
      for (Object v : values) {
        if (v instanceof Number) {
          hasNumber = true;
        } else if (v instanceof String) {
          hasString = true;
        } else {
          throw FilterPolicyException.policy("Inside anything but list, start|null|boolean is not supported.");
        }
        excluded.add(JsonValues.normalize(v));
      }
      if (hasNumber == hasString) {
        throw FilterPolicyException.policy("Inside anything but list, either all values are number or string, "
            + "mixed type is not supported");
      }
      return new ValueMatcher.AnythingBut(List.copyOf(excluded));
    }
    if (operand instanceof String || operand instanceof Number) {
      return new ValueMatcher.AnythingBut(List.of(JsonValues.normalize(operand)));
    }
    throw FilterPolicyException.policy("Match value must be String, number, true, false, or null");
  }
}
