package dev.sluice.topics;

import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.JsonText;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A topic's settable attributes (SNS API reference: SetTopicAttributes, CreateTopic), checked as
 * SNS checks them, and the view GetTopicAttributes answers with the read-only ones added. The
 * delivery-status logging attributes and TracingConfig and KmsMasterKeyId are kept and shown but
 * change nothing here (no CloudWatch, X-Ray or KMS). Immutable.
 */
public final class TopicAttributes {
  /** What SetTopicAttributes may set on any topic. */
  private static final Set<String> SETTABLE = Set.of(
      "DisplayName", "Policy", "DeliveryPolicy", "SignatureVersion", "TracingConfig", "KmsMasterKeyId");
  /** What only a FIFO topic has. */
  private static final Set<String> FIFO_ONLY = Set.of("ContentBasedDeduplication", "FifoThroughputScope");
  /** Delivery-status logging (SNS Developer Guide: Amazon SNS message delivery status), kept without effect. */
  private static final Set<String> FEEDBACK = feedbackNames();
  static final String DEFAULT_DELIVERY_POLICY = "{\"http\":{\"defaultHealthyRetryPolicy\":{\"minDelayTarget\":20,"
      + "\"maxDelayTarget\":20,\"numRetries\":3,\"numMaxDelayRetries\":0,\"numNoDelayRetries\":0,"
      + "\"numMinDelayRetries\":0,\"backoffFunction\":\"linear\"},\"disableSubscriptionOverrides\":false,"
      + "\"defaultRequestPolicy\":{\"headerContentType\":\"text/plain; charset=UTF-8\"}}}";

  /** The longest attribute value (SNS: a topic policy of at most 30 KiB); bounds a topic's memory. */
  static final int MAX_VALUE_LENGTH = 30_720;

  private final boolean fifo;
  /** Set values by name, in the order first set. */
  private final Map<String, String> values;

  private TopicAttributes(boolean fifo, Map<String, String> values) {
    this.fifo = fifo;
    this.values = values;
  }

  /**
   * A new topic's attributes: {@code given} as CreateTopic's Attributes (null for none), where
   * FifoTopic says the topic's kind and is not kept among the values. A bad one is refused as
   * "Invalid parameter: Attributes Reason: …", SNS's wording for CreateTopic and Subscribe.
   */
  public static TopicAttributes create(boolean fifo, Map<String, String> given) {
    Map<String, String> values = new LinkedHashMap<>();
    if (given != null) {
      for (Map.Entry<String, String> e : given.entrySet()) {
        String name = e.getKey();
        if (name.equals("FifoTopic")) {
          continue;
        }
        if (!isKnown(name)) {
          throw SnsException.invalidParameter("Attributes", "Invalid attribute name: " + name);
        }
        String problem = problem(fifo, name, e.getValue());
        if (problem != null) {
          throw SnsException.invalidParameter("Attributes", name + ": " + problem);
        }
        if (!clears(name, e.getValue())) {
          values.put(name, e.getValue());
        }
      }
    }
    return new TopicAttributes(fifo, Map.copyOf(values));
  }

  /** Whether CreateTopic's Attributes say FIFO (FifoTopic=true); any value but true and false is refused. */
  public static boolean fifoOf(Map<String, String> given) {
    String v = given == null ? null : given.get("FifoTopic");
    if (v == null || v.equalsIgnoreCase("false")) {
      return false;
    }
    if (v.equalsIgnoreCase("true")) {
      return true;
    }
    throw SnsException.invalidParameter("Attributes", "FifoTopic: " + invalidValue(v, "true or false"));
  }

  /**
   * These attributes with {@code name} set to {@code value}, or cleared when {@code value} is null
   * or an empty policy (SetTopicAttributes); throws InvalidParameter in SNS's wording for it,
   * "Invalid parameter: AttributeName" for a name it cannot set (FifoTopic included, AWS-recorded).
   */
  public TopicAttributes with(String name, String value) {
    if (name == null) {
      throw SnsException.missing("attributeName");
    }
    if (!isKnown(name)) {
      throw SnsException.invalidParameter("AttributeName");
    }
    String problem = value == null ? null : problem(fifo, name, value);
    if (problem != null) {
      throw SnsException.invalidParameter(name + ": " + problem);
    }
    Map<String, String> next = new LinkedHashMap<>(values);
    if (value == null || clears(name, value)) {
      next.remove(name);
    } else {
      next.put(name, value);
    }
    return new TopicAttributes(fifo, Map.copyOf(next));
  }

  private static boolean isKnown(String name) {
    return SETTABLE.contains(name) || FEEDBACK.contains(name) || FIFO_ONLY.contains(name);
  }

  /** An empty Policy or DeliveryPolicy removes it (the topic then has the default again). */
  private static boolean clears(String name, String value) {
    return value.isEmpty() && (name.equals("Policy") || name.equals("DeliveryPolicy"));
  }

  /** What is wrong with {@code value} for {@code name}, in SNS's words, or null. */
  private static String problem(boolean fifo, String name, String value) {
    if (FIFO_ONLY.contains(name) && !fifo) {
      return "only FIFO topics have this attribute";
    }
    if (value.length() > MAX_VALUE_LENGTH) {
      return "must be at most " + MAX_VALUE_LENGTH + " characters long";
    }
    return switch (name) {
      case "SignatureVersion" -> value.equals("1") || value.equals("2") ? null : invalidValue(value, "1 or 2");
      case "TracingConfig" -> value.equals("PassThrough") || value.equals("Active") ? null
          : invalidValue(value, "PassThrough or Active");
      case "ContentBasedDeduplication" -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false") ? null
          : invalidValue(value, "true or false");
      case "FifoThroughputScope" -> value.equals("Topic") || value.equals("MessageGroup") ? null
          : invalidValue(value, "Topic or MessageGroup");
      case "Policy" -> value.isEmpty() || JsonText.parseObject(value) != null ? null : "failed to parse JSON.";
      case "DeliveryPolicy" -> value.isEmpty() ? null : DeliveryPolicy.problemOfTopicPolicy(value);
      case "DisplayName" -> value.length() <= 100 ? null : "must be at most 100 characters long";
      default -> !name.endsWith("SampleRate") || isPercent(value) ? null : invalidValue(value, "an integer from 0 to 100");
    };
  }

  private static String invalidValue(String value, String allowed) {
    return "Invalid value [" + value + "]. Must be " + allowed + ".";
  }

  private static boolean isPercent(String v) {
    return v.length() <= 3 && !v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')
        && Integer.parseInt(v) <= 100;
  }

  public boolean fifo() {
    return fifo;
  }

  /** A set attribute's value, or null. */
  public String get(String name) {
    return values.get(name);
  }

  /** What is kept in PostgreSQL: the set values, and FifoTopic for a FIFO topic; {@link #create} reads it back. */
  public Map<String, String> stored() {
    Map<String, String> out = new LinkedHashMap<>(values);
    if (fifo) {
      out.put("FifoTopic", "true");
    }
    return out;
  }

  /** The characters the values hold, for the memory they take. */
  long textLength() {
    long n = 0;
    for (Map.Entry<String, String> e : values.entrySet()) {
      n += e.getKey().length() + e.getValue().length();
    }
    return n;
  }

  /** The SignatureVersion envelopes are signed with: "1" unless set to "2". */
  public String signatureVersion() {
    return values.getOrDefault("SignatureVersion", "1");
  }

  /** Whether the topic dedups by content (FIFO topics only). */
  public boolean contentBasedDeduplication() {
    return "true".equalsIgnoreCase(values.get("ContentBasedDeduplication"));
  }

  /**
   * The first of {@code given} (CreateTopic's Attributes for a topic that exists) whose value is
   * not the topic's, or null: CreateTopic answers an existing topic only when nothing differs.
   */
  public String firstDifference(Map<String, String> given, TopicKey key) {
    if (given == null) {
      return null;
    }
    Map<String, String> shown = view(key, 0, 0, 0);
    for (Map.Entry<String, String> e : given.entrySet()) {
      String have = e.getKey().equals("FifoTopic") ? Boolean.toString(fifo) : shown.get(e.getKey());
      if (!e.getValue().equals(have == null ? "" : have)) {
        return e.getKey();
      }
    }
    return null;
  }

  /** GetTopicAttributes: the set attributes and the read-only ones, by name. */
  public Map<String, String> view(TopicKey key, int confirmed, int pending, int deleted) {
    Map<String, String> out = new TreeMap<>(values);
    out.putIfAbsent("DisplayName", "");
    out.put("TopicArn", key.arn());
    out.put("Owner", key.accountId());
    out.putIfAbsent("Policy", defaultPolicy(key));
    out.put("EffectiveDeliveryPolicy", effectiveDeliveryPolicy());
    out.put("SubscriptionsConfirmed", Integer.toString(confirmed));
    out.put("SubscriptionsPending", Integer.toString(pending));
    out.put("SubscriptionsDeleted", Integer.toString(deleted));
    if (fifo) {
      out.put("FifoTopic", "true");
      out.putIfAbsent("ContentBasedDeduplication", "false");
    }
    return out;
  }

  /**
   * The delivery policy deliveries follow: the default's {@code http} section with what the
   * topic's DeliveryPolicy sets in its own {@code http} section laid over it, key by key.
   */
  @SuppressWarnings("unchecked")
  String effectiveDeliveryPolicy() {
    String set = values.get("DeliveryPolicy");
    if (set == null) {
      return DEFAULT_DELIVERY_POLICY;
    }
    Map<String, Object> effective = JsonText.parseObject(DEFAULT_DELIVERY_POLICY);
    Object http = JsonText.parseObject(set).get("http");
    if (http instanceof Map<?, ?> overrides) {
      ((Map<String, Object>) effective.get("http")).putAll((Map<String, Object>) overrides);
    }
    return JsonText.write(effective);
  }

  /** AWS's policy of a new topic: every account may act on it as long as it is the owner (AWS:SourceOwner). */
  static String defaultPolicy(TopicKey key) {
    return "{\"Version\":\"2008-10-17\",\"Id\":\"__default_policy_ID\",\"Statement\":[{\"Sid\":"
        + "\"__default_statement_ID\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"*\"},\"Action\":["
        + "\"SNS:GetTopicAttributes\",\"SNS:SetTopicAttributes\",\"SNS:AddPermission\",\"SNS:RemovePermission\","
        + "\"SNS:DeleteTopic\",\"SNS:Subscribe\",\"SNS:ListSubscriptionsByTopic\",\"SNS:Publish\"],\"Resource\":\""
        + key.arn() + "\",\"Condition\":{\"StringEquals\":{\"AWS:SourceOwner\":\"" + key.accountId() + "\"}}}]}";
  }

  private static Set<String> feedbackNames() {
    Set<String> names = new java.util.HashSet<>();
    for (String protocol : new String[] {"Application", "Firehose", "HTTP", "Lambda", "SQS"}) {
      names.add(protocol + "SuccessFeedbackRoleArn");
      names.add(protocol + "SuccessFeedbackSampleRate");
      names.add(protocol + "FailureFeedbackRoleArn");
    }
    return Set.copyOf(names);
  }
}
