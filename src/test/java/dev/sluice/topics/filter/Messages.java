package dev.sluice.topics.filter;

import java.util.LinkedHashMap;
import java.util.Map;

/** Test messages written compactly: attributes as (name, data type, string value) triples. */
final class Messages {
  private Messages() {}

  static Map<String, FilterAttribute> attrs(String... nameTypeValue) {
    Map<String, FilterAttribute> m = new LinkedHashMap<>();
    for (int i = 0; i < nameTypeValue.length; i += 3) {
      m.put(nameTypeValue[i], new FilterAttribute(nameTypeValue[i + 1], nameTypeValue[i + 2]));
    }
    return m;
  }

  /** JSON with single quotes, so the tables stay readable; no case needs a literal single quote. */
  static String json(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }
}
