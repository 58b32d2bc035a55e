package dev.sluice.model;

import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;
import java.util.Map;

/** Tag keys and values (AWS API reference: TagQueue): lengths, characters, the reserved aws: prefix. */
final class TagRules {
  private TagRules() {}

  static void check(Map<String, String> tags) {
    for (Map.Entry<String, String> e : tags.entrySet()) {
      String key = e.getKey();
      String value = e.getValue() == null ? "" : e.getValue();
      if (key == null || key.isEmpty() || key.length() > Limits.TAG_KEY_MAX_LENGTH || !allowed(key)) {
        throw SqsException.invalidParameter(
            "Tag key " + key + " is invalid: keys are 1 to 128 Unicode letters, digits, white space or"
                + " _ . : / = + - @ characters.");
      }
      if (key.toLowerCase().startsWith("aws:")) {
        throw SqsException.invalidParameter("Tag key " + key + " is invalid: the aws: prefix is reserved.");
      }
      if (value.length() > Limits.TAG_VALUE_MAX_LENGTH || !allowed(value)) {
        throw SqsException.invalidParameter(
            "Tag value for key " + key + " is invalid: values are 0 to 256 Unicode letters, digits,"
                + " white space or _ . : / = + - @ characters.");
      }
    }
  }

  private static boolean allowed(String s) {
    return s.codePoints()
        .allMatch(c -> Character.isLetterOrDigit(c) || Character.isWhitespace(c) || "_.:/=+-@".indexOf(c) >= 0);
  }
}
