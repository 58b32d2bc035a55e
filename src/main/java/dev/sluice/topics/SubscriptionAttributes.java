package dev.sluice.topics;

import dev.sluice.api.topics.SnsException;
import dev.sluice.model.JsonText;
import dev.sluice.topics.filter.FilterPolicy;
import dev.sluice.topics.filter.FilterPolicyException;
import dev.sluice.topics.filter.FilterPolicyScope;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A subscription's settable attributes (SNS API reference: SetSubscriptionAttributes) as SNS checks
 * them, with AWS's texts: {@code RawMessageDelivery} (true or false, any case, kept lower-case),
 * {@code FilterPolicy} and {@code FilterPolicyScope} (compiled, see {@link FilterPolicy}),
 * {@code RedrivePolicy} (an SQS queue ARN to dead-letter to) and, for HTTP/HTTPS subscriptions,
 * {@code DeliveryPolicy} ({@link DeliveryPolicy}). Subscribe words a refusal
 * "Invalid parameter: Attributes Reason: …", SetSubscriptionAttributes "Invalid parameter: …".
 * Immutable.
 */
public final class SubscriptionAttributes {
  static final Set<String> NAMES = Set.of("RawMessageDelivery", "FilterPolicy", "FilterPolicyScope", "RedrivePolicy",
      "DeliveryPolicy");
  /** The longest FilterPolicy or RedrivePolicy (SNS: a filter policy of at most 256 KiB). */
  static final int MAX_POLICY_LENGTH = 262_144;

  private final boolean raw;
  /** Null when the subscription takes every message. */
  private final FilterPolicy filter;
  /** The scope set, or null for the default (MessageAttributes). */
  private final FilterPolicyScope scope;
  private final String redrivePolicy;
  private final String deadLetterArn;
  /** The subscription's DeliveryPolicy as set, or null. */
  private final String deliveryPolicy;

  private SubscriptionAttributes(boolean raw, FilterPolicy filter, FilterPolicyScope scope, String redrivePolicy,
      String deadLetterArn, String deliveryPolicy) {
    this.raw = raw;
    this.filter = filter;
    this.scope = scope;
    this.redrivePolicy = redrivePolicy;
    this.deadLetterArn = deadLetterArn;
    this.deliveryPolicy = deliveryPolicy;
  }

  static final SubscriptionAttributes NONE = new SubscriptionAttributes(false, null, null, null, null, null);

  /**
   * Subscribe's Attributes (null for none) for a subscription of {@code protocol}; the scope is read
   * before the policy it applies to.
   */
  public static SubscriptionAttributes create(Map<String, String> given, boolean fifoTopic, String protocol) {
    if (given == null || given.isEmpty()) {
      return NONE;
    }
    SubscriptionAttributes a = NONE;
    Map<String, String> ordered = new LinkedHashMap<>();
    if (given.containsKey("FilterPolicyScope")) {
      ordered.put("FilterPolicyScope", given.get("FilterPolicyScope"));
    }
    ordered.putAll(given);
    for (Map.Entry<String, String> e : ordered.entrySet()) {
      if (!NAMES.contains(e.getKey())) {
        throw SnsException.invalidParameter("Attributes", "Invalid attribute name: " + e.getKey());
      }
      try {
        a = a.set(e.getKey(), e.getValue(), fifoTopic, protocol);
      } catch (Refusal r) {
        throw SnsException.invalidParameter("Attributes", r.getMessage());
      } catch (FilterPolicyException f) {
        throw SnsException.invalidParameter(f.subscribeMessage().substring("Invalid parameter: ".length()));
      }
    }
    return a;
  }

  /** SetSubscriptionAttributes: these attributes with one changed; "Invalid parameter: AttributeName" for others. */
  public SubscriptionAttributes with(String name, String value, boolean fifoTopic, String protocol) {
    if (name == null) {
      throw SnsException.missing("attributeName");
    }
    if (!NAMES.contains(name)) {
      throw SnsException.invalidParameter("AttributeName");
    }
    try {
      return set(name, value == null ? "" : value, fifoTopic, protocol);
    } catch (Refusal r) {
      throw SnsException.invalidParameter(r.getMessage());
    } catch (FilterPolicyException f) {
      throw SnsException.invalidParameter(f.setAttributesMessage().substring("Invalid parameter: ".length()));
    }
  }

  private SubscriptionAttributes set(String name, String value, boolean fifoTopic, String protocol) {
    if (value.length() > MAX_POLICY_LENGTH) {
      throw new Refusal(name + ": must be at most " + MAX_POLICY_LENGTH + " characters long");
    }
    switch (name) {
      case "RawMessageDelivery" -> {
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
          throw new Refusal("RawMessageDelivery: Invalid value [" + value + "]. Must be true or false.");
        }
        return new SubscriptionAttributes(value.equalsIgnoreCase("true"), filter, scope, redrivePolicy, deadLetterArn,
            deliveryPolicy);
      }
      case "FilterPolicyScope" -> {
        FilterPolicyScope s = FilterPolicyScope.fromAttributeValue(value);
        // The policy there is read again under the new scope: one the scope cannot take is refused.
        FilterPolicy f = filter == null ? null : FilterPolicy.parse(filter.json(), s);
        return new SubscriptionAttributes(raw, f, s, redrivePolicy, deadLetterArn, deliveryPolicy);
      }
      case "FilterPolicy" -> {
        FilterPolicy f = value.isEmpty() ? null : FilterPolicy.parse(value, scopeOrDefault());
        return new SubscriptionAttributes(raw, f, scope, redrivePolicy, deadLetterArn, deliveryPolicy);
      }
      case "DeliveryPolicy" -> {
        if (!SubscriptionEndpoints.isHttp(protocol)) {
          throw new Refusal("DeliveryPolicy: only HTTP/S subscriptions have a delivery policy");
        }
        String problem = value.isEmpty() ? null : DeliveryPolicy.problemOfSubscriptionPolicy(value);
        if (problem != null) {
          throw new Refusal("DeliveryPolicy: " + problem);
        }
        return new SubscriptionAttributes(raw, filter, scope, redrivePolicy, deadLetterArn,
            value.isEmpty() ? null : value);
      }
      default -> {
        if (value.isEmpty()) {
          return new SubscriptionAttributes(raw, filter, scope, null, null, deliveryPolicy);
        }
        return new SubscriptionAttributes(raw, filter, scope, value, deadLetterArnOf(value, fifoTopic),
            deliveryPolicy);
      }
    }
  }

  /** The RedrivePolicy's target: an SQS queue ARN (AWS: Amazon SNS dead-letter queues). */
  private static String deadLetterArnOf(String policy, boolean fifoTopic) {
    Map<String, Object> parsed = JsonText.parseObject(policy);
    if (parsed == null) {
      throw new Refusal("RedrivePolicy: failed to parse JSON.");
    }
    Object arn = parsed.get("deadLetterTargetArn");
    if (!(arn instanceof String s) || !s.startsWith("arn:") || s.split(":", -1).length != 6
        || !s.split(":", -1)[2].equals("sqs")) {
      throw new Refusal("RedrivePolicy: deadLetterTargetArn is an invalid arn");
    }
    if (fifoTopic && !s.endsWith(".fifo")) {
      throw new Refusal("RedrivePolicy: must use a FIFO queue as DLQ for a FIFO Subscription to a FIFO Topic.");
    }
    return s;
  }

  private FilterPolicyScope scopeOrDefault() {
    return scope == null ? FilterPolicyScope.MESSAGE_ATTRIBUTES : scope;
  }

  public boolean raw() {
    return raw;
  }

  /** The compiled filter policy, or null when the subscription takes every message. */
  public FilterPolicy filter() {
    return filter;
  }

  /** The subscription's DeliveryPolicy as set, or null. */
  public String deliveryPolicy() {
    return deliveryPolicy;
  }

  /** The queue ARN failed deliveries go to, or null. */
  public String deadLetterArn() {
    return deadLetterArn;
  }

  /**
   * Whether Subscribe's {@code given} attributes say what these say: Subscribe of an existing
   * (protocol, endpoint) answers its ARN only then (AWS-recorded: "True" and "true" are the same,
   * as are no scope and the default scope).
   */
  public boolean sameAs(SubscriptionAttributes other) {
    return raw == other.raw && scopeOrDefault() == other.scopeOrDefault()
        && java.util.Objects.equals(filter == null ? null : filter.json(),
            other.filter == null ? null : other.filter.json())
        && java.util.Objects.equals(redrivePolicy, other.redrivePolicy)
        && java.util.Objects.equals(deliveryPolicy, other.deliveryPolicy);
  }

  /** The characters the policies hold, for the memory they take. */
  long textLength() {
    return (filter == null ? 0 : filter.json().length()) + (redrivePolicy == null ? 0 : redrivePolicy.length())
        + (deliveryPolicy == null ? 0 : deliveryPolicy.length());
  }

  /** What is kept in PostgreSQL: the attributes set, as Subscribe takes them ({@link #create} reads them back). */
  public Map<String, String> stored() {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw) {
      out.put("RawMessageDelivery", "true");
    }
    if (scope != null) {
      out.put("FilterPolicyScope", scope.attributeValue());
    }
    if (filter != null) {
      out.put("FilterPolicy", filter.json());
    }
    if (redrivePolicy != null) {
      out.put("RedrivePolicy", redrivePolicy);
    }
    if (deliveryPolicy != null) {
      out.put("DeliveryPolicy", deliveryPolicy);
    }
    return out;
  }

  /** The settable attributes as GetSubscriptionAttributes shows them. */
  void addTo(Map<String, String> view) {
    view.put("RawMessageDelivery", Boolean.toString(raw));
    if (filter != null) {
      view.put("FilterPolicy", filter.json());
      view.put("FilterPolicyScope", scopeOrDefault().attributeValue());
    }
    if (redrivePolicy != null) {
      view.put("RedrivePolicy", redrivePolicy);
    }
    if (deliveryPolicy != null) {
      view.put("DeliveryPolicy", deliveryPolicy);
    }
  }

  /** A refusal on its way to its wording. No stack trace: it is an answer. */
  private static final class Refusal extends RuntimeException {
    Refusal(String message) {
      super(message, null, false, false);
    }
  }
}
