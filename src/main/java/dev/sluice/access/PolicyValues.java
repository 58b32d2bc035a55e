package dev.sluice.access;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reading the parsed tree (maps, lists, strings, numbers, booleans, as JSON and YAML parsers give
 * them) the way policy elements are written: one string or a list of them. Stateless.
 */
final class PolicyValues {
  private PolicyValues() {}

  /**
   * A string, or a non-empty list of strings, as a list. Whole numbers count as their digits: a
   * YAML account id written without quotes, or a JSON one without quotes, is still an account id.
   */
  static List<String> strings(Object value, String where) {
    List<?> items = value instanceof List<?> l ? l : value == null ? List.of() : List.of(value);
    if (items.isEmpty()) {
      throw PolicyException.invalid(where + " must be a string or a non-empty list of strings");
    }
    List<String> out = new ArrayList<>(items.size());
    for (Object item : items) {
      String s = text(item);
      if (s == null) {
        throw PolicyException.invalid(where + " must hold strings, not " + show(item));
      }
      out.add(s);
    }
    return out;
  }

  private static String text(Object item) {
    if (item instanceof String s) {
      return s;
    }
    if (item instanceof Integer || item instanceof Long || item instanceof BigInteger) {
      return item.toString();
    }
    return null;
  }

  /** A JSON object's members, or a refusal naming where it was expected. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value, String where) {
    if (value instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    throw PolicyException.invalid(where + " must be an object, not " + show(value));
  }

  /** A value as an error message quotes it. */
  static String show(Object value) {
    if (value instanceof String s) {
      return "\"" + s + "\"";
    }
    return value instanceof Map ? "an object" : value instanceof List ? "a list" : String.valueOf(value);
  }
}
