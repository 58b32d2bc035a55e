package dev.sluice.topics.filter;

import dev.sluice.model.JsonText;
import java.util.ArrayList;
import java.util.List;

/**
 * One SNS message attribute as a filter policy sees it. The data type may carry a custom suffix
 * ({@code Number.float}, {@code String.uuid}), as SNS allows, so types are read by their prefix.
 */
public record FilterAttribute(String dataType, String stringValue) {

  public static FilterAttribute string(String value) {
    return new FilterAttribute("String", value);
  }

  public static FilterAttribute number(String value) {
    return new FilterAttribute("Number", value);
  }

  public static FilterAttribute stringArray(String jsonArray) {
    return new FilterAttribute("String.Array", jsonArray);
  }

  /**
   * The values a policy compares, typed as JSON values are (String, BigDecimal, Boolean, null), or
   * null when the policy must treat the attribute as absent: SNS ignores Binary attributes.
   */
  List<Object> matchableValues() {
    String type = dataType == null ? "" : dataType;
    if (type.startsWith("String.Array")) {
      return arrayElements();
    }
    if (type.startsWith("String")) {
      return List.of(stringValue == null ? "" : stringValue);
    }
    if (type.startsWith("Number")) {
      // A Number attribute matches numerically only ("Prefixes are supported for string matching only").
      return JsonValues.parseNumber(stringValue).<List<Object>>map(List::of).orElse(List.of());
    }
    return null;
  }

  private List<Object> arrayElements() {
    Object parsed;
    try {
      parsed = JsonText.parse(stringValue == null ? "" : stringValue);
    } catch (IllegalArgumentException e) {
      // SNS refuses such a publish; if one gets here, the attribute is present but matches no value.
      return List.of();
    }
    if (!(parsed instanceof List<?> elements)) {
      return List.of();
    }
    List<Object> values = new ArrayList<>();
    for (Object e : elements) {
      if (!(e instanceof java.util.Map) && !(e instanceof List)) {
        values.add(JsonValues.normalize(e));
      }
    }
    return values;
  }
}
