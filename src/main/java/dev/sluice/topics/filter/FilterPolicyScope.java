package dev.sluice.topics.filter;

/** What a subscription's filter policy looks at: the message attributes (AWS's default) or the body. */
public enum FilterPolicyScope {
  MESSAGE_ATTRIBUTES("MessageAttributes"),
  MESSAGE_BODY("MessageBody");

  private final String attributeValue;

  FilterPolicyScope(String attributeValue) {
    this.attributeValue = attributeValue;
  }

  /** The value of the FilterPolicyScope subscription attribute that names this scope. */
  public String attributeValue() {
    return attributeValue;
  }

  /** Reads a FilterPolicyScope attribute value, rejecting anything else with AWS's text. */
  public static FilterPolicyScope fromAttributeValue(String value) {
    for (FilterPolicyScope s : values()) {
      if (s.attributeValue.equals(value)) {
        return s;
      }
    }
    throw new FilterPolicyException("FilterPolicyScope: Invalid value [" + value
        + "]. Please use either MessageBody or MessageAttributes");
  }
}
