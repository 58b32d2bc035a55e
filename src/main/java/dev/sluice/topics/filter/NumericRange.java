package dev.sluice.topics.filter;

import dev.sluice.model.JsonText;
import java.math.BigDecimal;
import java.util.List;

/**
 * The interval of a {@code numeric} match: one comparison ({@code ["<", 0]}, {@code ["=", 5]}) or
 * a lower bound followed by an upper one ({@code [">", 0, "<=", 150]}). A null bound is open.
 * Parsing checks the array in AWS's order and with AWS's texts.
 */
record NumericRange(BigDecimal lower, boolean lowerInclusive, BigDecimal upper, boolean upperInclusive) {

  boolean contains(BigDecimal v) {
    if (lower != null) {
      int c = v.compareTo(lower);
      if (c < 0 || (c == 0 && !lowerInclusive)) {
        return false;
      }
    }
    if (upper != null) {
      int c = v.compareTo(upper);
      return c < 0 || (c == 0 && upperInclusive);
    }
    return true;
  }

  static NumericRange parse(Object operand) {
    if (!(operand instanceof List<?> terms) || terms.isEmpty()) {
      // An empty array leaves AWS's reader at the closing bracket, which is what it names.
      throw FilterPolicyException.policy("Invalid member in numeric match: "
          + (operand instanceof List ? "]" : describe(operand)));
    }
    Object first = terms.get(0);
    if (!(first instanceof String op)) {
      throw FilterPolicyException.policy("Invalid member in numeric match: " + describe(first));
    }
    if (!List.of("<", "<=", "=", ">", ">=").contains(op)) {
      throw FilterPolicyException.policy("Unrecognized numeric range operator: " + op);
    }
    BigDecimal firstValue = numberAt(terms, 1, op);
    if (terms.size() == 2) {
      return switch (op) {
        case "=" -> new NumericRange(firstValue, true, firstValue, true);
        case "<" -> new NumericRange(null, false, firstValue, false);
        case "<=" -> new NumericRange(null, false, firstValue, true);
        case ">" -> new NumericRange(firstValue, false, null, false);
        default -> new NumericRange(firstValue, true, null, false);
      };
    }
    // Only a lower bound may be followed by anything.
    if (!op.equals(">") && !op.equals(">=")) {
      throw FilterPolicyException.policy("Too many elements in numeric expression");
    }
    Object second = terms.get(2);
    if (!(second instanceof String op2)) {
      throw FilterPolicyException.policy("Bad value in numeric range: " + describe(second));
    }
    if (!op2.equals("<") && !op2.equals("<=")) {
      throw FilterPolicyException.policy("Bad numeric range operator: " + op2);
    }
    BigDecimal secondValue = numberAt(terms, 3, op2);
    if (secondValue.compareTo(firstValue) <= 0) {
      throw FilterPolicyException.policy("Bottom must be less than top");
    }
    if (terms.size() > 4) {
      throw FilterPolicyException.policy("Too many terms in numeric range expression");
    }
    return new NumericRange(firstValue, op.equals(">="), secondValue, op2.equals("<="));
  }

  private static BigDecimal numberAt(List<?> terms, int index, String op) {
    Object v = index < terms.size() ? terms.get(index) : null;
    if (!(v instanceof Number n)) {
      throw FilterPolicyException.policy(
          "Value of " + (op.equals("=") ? "equals" : op) + " must be numeric");
    }
    return JsonValues.toDecimal(n);
  }

  /** A term as it was written in the policy, as AWS quotes it. */
  static String describe(Object term) {
    return term instanceof String s ? s : JsonText.write(term);
  }
}
