package dev.sluice.topics.filter;

import dev.sluice.model.JsonText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A message body as a body-scope policy reads it: every leaf value under its dotted path, arrays
 * (nested ones too) contributing each element, so {@code {"a": [{"b": 1}, {"b": 2}]}} holds 1 and
 * 2 at {@code a.b}. A key whose name has a dot lands on the same path as the nesting it spells,
 * which is how AWS matches them. Empty arrays and objects hold nothing, so their key is absent.
 */
final class BodyValues implements Condition.Values {
  private final Map<String, List<Object>> byPath = new HashMap<>();

  private BodyValues() {}

  /** The body's values, or null when the body is not a JSON object (such a body matches nothing). */
  static BodyValues of(String body) {
    Map<String, Object> object = body == null ? null : JsonText.parseObject(body);
    if (object == null) {
      return null;
    }
    BodyValues values = new BodyValues();
    values.collect(object, "");
    return values;
  }

  /** The values of an already parsed document (an event record, for {@link EventPattern}). */
  static BodyValues of(Map<String, Object> document) {
    BodyValues values = new BodyValues();
    values.collect(document, "");
    return values;
  }

  private void collect(Object node, String path) {
    if (node instanceof Map<?, ?> object) {
      for (Map.Entry<?, ?> e : object.entrySet()) {
        collect(e.getValue(), path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey());
      }
    } else if (node instanceof List<?> elements) {
      for (Object element : elements) {
        collect(element, path);
      }
    } else {
      byPath.computeIfAbsent(path, p -> new ArrayList<>()).add(JsonValues.normalize(node));
    }
  }

  @Override
  public List<Object> at(String path) {
    return byPath.get(path);
  }
}
