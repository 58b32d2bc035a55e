package dev.sluice.topics.filter;

import dev.sluice.model.JsonText;
import java.util.Map;

/**
 * A validated, compiled SNS subscription filter policy. Immutable, so one instance serves every
 * publish to the subscription from any thread.
 */
public final class FilterPolicy {
  private final String json;
  private final FilterPolicyScope scope;
  private final Condition condition;

  private FilterPolicy(String json, FilterPolicyScope scope, Condition condition) {
    this.json = json;
    this.scope = scope;
    this.condition = condition;
  }

  /**
   * Validates a FilterPolicy attribute value for a scope, as Subscribe and SetSubscriptionAttributes
   * do, and compiles it.
   *
   * @throws FilterPolicyException with AWS's reason when AWS would refuse the policy
   */
  @SuppressWarnings("unchecked")
  public static FilterPolicy parse(String json, FilterPolicyScope scope) {
    Object parsed;
    try {
      parsed = JsonText.parse(json);
    } catch (IllegalArgumentException e) {
      throw FilterPolicyException.policy("failed to parse JSON. " + e.getMessage());
    }
    if (!(parsed instanceof Map<?, ?>)) {
      throw FilterPolicyException.policy("Filter policy must be a JSON object");
    }
    Map<String, Object> policy = (Map<String, Object>) parsed;
    PolicyShape.check(policy, scope);
    return new FilterPolicy(json, scope, PolicyCompiler.compile(policy));
  }

  public String json() {
    return json;
  }

  public FilterPolicyScope scope() {
    return scope;
  }

  /** Whether a message is delivered to the subscription, reading what this policy's scope reads. */
  public boolean accepts(Map<String, FilterAttribute> attributes, String body) {
    return scope == FilterPolicyScope.MESSAGE_BODY ? matchesBody(body) : matches(attributes);
  }

  /** Matches message attributes by name (MessageAttributes scope); Binary ones count as absent. */
  public boolean matches(Map<String, FilterAttribute> attributes) {
    return condition.matches(name -> {
      FilterAttribute a = attributes == null ? null : attributes.get(name);
      return a == null ? null : a.matchableValues();
    });
  }

  /** Matches a message body (MessageBody scope); a body that is not a JSON object matches nothing. */
  public boolean matchesBody(String body) {
    BodyValues values = BodyValues.of(body);
    return values != null && condition.matches(values);
  }

  @Override
  public String toString() {
    return "FilterPolicy[" + scope.attributeValue() + " " + json + "]";
  }
}
