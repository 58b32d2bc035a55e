package dev.sluice.topics.filter;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * The one comparison of policy values with message values: numbers are compared as BigDecimal, so
 * 300, 300.0 and 3e2 are equal; strings, booleans and null only equal their own kind.
 */
final class JsonValues {
  private JsonValues() {}

  /** Turns a parsed JSON scalar into the form compared here (numbers become BigDecimal). */
  static Object normalize(Object jsonScalar) {
    return jsonScalar instanceof Number n ? toDecimal(n) : jsonScalar;
  }

  static BigDecimal toDecimal(Number n) {
    return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
  }

  static Optional<BigDecimal> parseNumber(String text) {
    if (text == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(new BigDecimal(text.trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  static boolean same(Object policyValue, Object messageValue) {
    if (policyValue instanceof BigDecimal p) {
      return messageValue instanceof BigDecimal m && p.compareTo(m) == 0;
    }
    return policyValue == null ? messageValue == null : policyValue.equals(messageValue);
  }
}
