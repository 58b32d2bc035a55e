package dev.sluice.model;

import dev.sluice.access.PolicyDocument;
import dev.sluice.access.PolicyException;
import dev.sluice.access.QueuePolicy;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A queue's settable attributes (AWS API reference: SetQueueAttributes), validated and held in canonical string
 * form, with the values the engine reads on every request cached as fields. Immutable: a change
 * produces a new instance, so a shard can swap it in one assignment.
 */
public final class QueueAttributes {
  public static final String DELAY_SECONDS = "DelaySeconds";
  public static final String MAXIMUM_MESSAGE_SIZE = "MaximumMessageSize";
  public static final String MESSAGE_RETENTION_PERIOD = "MessageRetentionPeriod";
  public static final String RECEIVE_MESSAGE_WAIT_TIME_SECONDS = "ReceiveMessageWaitTimeSeconds";
  public static final String VISIBILITY_TIMEOUT = "VisibilityTimeout";
  public static final String POLICY = "Policy";
  public static final String FIFO_QUEUE = "FifoQueue";
  public static final String CONTENT_BASED_DEDUPLICATION = "ContentBasedDeduplication";
  public static final String DEDUPLICATION_SCOPE = "DeduplicationScope";
  public static final String FIFO_THROUGHPUT_LIMIT = "FifoThroughputLimit";
  public static final String KMS_MASTER_KEY_ID = "KmsMasterKeyId";
  public static final String KMS_DATA_KEY_REUSE_PERIOD_SECONDS = "KmsDataKeyReusePeriodSeconds";
  public static final String SQS_MANAGED_SSE_ENABLED = "SqsManagedSseEnabled";

  /** Computed attributes: readable, never settable. */
  public static final Set<String> READ_ONLY =
      Set.of(
          "ApproximateNumberOfMessages",
          "ApproximateNumberOfMessagesNotVisible",
          "ApproximateNumberOfMessagesDelayed",
          "CreatedTimestamp",
          "LastModifiedTimestamp",
          "QueueArn");

  private static final Set<String> FIFO_ONLY =
      Set.of(FIFO_QUEUE, CONTENT_BASED_DEDUPLICATION, DEDUPLICATION_SCOPE, FIFO_THROUGHPUT_LIMIT);

  private final Map<String, String> stored;
  private final boolean fifo;
  private final int delaySeconds;
  private final int maximumMessageSize;
  private final int retentionSeconds;
  private final int waitSeconds;
  private final int visibilitySeconds;
  private final RedrivePolicy redrivePolicy;
  private final RedriveAllowPolicy redriveAllowPolicy;
  private final PolicyDocument policyDocument;
  private final PolicyException policyRejection;

  private QueueAttributes(boolean fifo, Map<String, String> stored) {
    this.fifo = fifo;
    this.stored = Collections.unmodifiableMap(stored);
    this.delaySeconds = Integer.parseInt(stored.get(DELAY_SECONDS));
    this.maximumMessageSize = Integer.parseInt(stored.get(MAXIMUM_MESSAGE_SIZE));
    this.retentionSeconds = Integer.parseInt(stored.get(MESSAGE_RETENTION_PERIOD));
    this.waitSeconds = Integer.parseInt(stored.get(RECEIVE_MESSAGE_WAIT_TIME_SECONDS));
    this.visibilitySeconds = Integer.parseInt(stored.get(VISIBILITY_TIMEOUT));
    String redrive = stored.get(RedrivePolicy.NAME);
    this.redrivePolicy = redrive == null ? null : RedrivePolicy.parse(redrive, fifo);
    String allow = stored.get(RedriveAllowPolicy.NAME);
    this.redriveAllowPolicy = allow == null ? null : RedriveAllowPolicy.parse(allow);
    String policy = stored.get(POLICY);
    PolicyDocument doc = null;
    PolicyException rejection = null;
    if (policy != null) {
      try {
        doc = QueuePolicy.parse(policy, JsonText::parseObject);
      } catch (PolicyException e) {
        // Only a restored policy gets here: every new one was validated on its way in.
        rejection = e;
      }
    }
    this.policyDocument = doc;
    this.policyRejection = rejection;
  }

  /**
   * The attributes of a new queue: defaults (AWS API reference: GetQueueAttributes) overlaid with the
   * validated given ones.
   */
  public static QueueAttributes create(boolean fifo, Map<String, String> given) {
    Map<String, String> m = new TreeMap<>();
    m.put(DELAY_SECONDS, "0");
    m.put(MAXIMUM_MESSAGE_SIZE, Integer.toString(Limits.MESSAGE_SIZE_MAX));
    m.put(MESSAGE_RETENTION_PERIOD, Integer.toString(Limits.RETENTION_SECONDS_DEFAULT));
    m.put(RECEIVE_MESSAGE_WAIT_TIME_SECONDS, "0");
    m.put(VISIBILITY_TIMEOUT, Integer.toString(Limits.VISIBILITY_SECONDS_DEFAULT));
    m.put(SQS_MANAGED_SSE_ENABLED, "true");
    if (fifo) {
      m.put(FIFO_QUEUE, "true");
      m.put(CONTENT_BASED_DEDUPLICATION, "false");
      m.put(DEDUPLICATION_SCOPE, "queue");
      m.put(FIFO_THROUGHPUT_LIMIT, "perQueue");
    }
    return new QueueAttributes(fifo, m).with(given == null ? Map.of() : given);
  }

  /**
   * The attributes of a queue the durable store gives back. A Policy stored before Sluice
   * validated policies may no longer pass: it is kept as it was, so the queue still starts and
   * GetQueueAttributes still shows it, and {@link #policyRejection()} says why it cannot be read.
   */
  public static QueueAttributes restored(boolean fifo, Map<String, String> stored) {
    String policy = stored.get(POLICY);
    if (policy == null || policy.isEmpty()) {
      return create(fifo, stored);
    }
    Map<String, String> others = new HashMap<>(stored);
    others.remove(POLICY);
    QueueAttributes restored = create(fifo, others);
    try {
      return restored.with(Map.of(POLICY, policy));
    } catch (SqsException refused) {
      Map<String, String> m = new TreeMap<>(restored.stored);
      m.put(POLICY, policy);
      return new QueueAttributes(fifo, m);
    }
  }

  /** A copy with the given changes applied (SetQueueAttributes); validates every name and value. */
  public QueueAttributes with(Map<String, String> changes) {
    Map<String, String> m = new TreeMap<>(stored);
    if (changes.containsKey(KMS_MASTER_KEY_ID)
        && !changes.get(KMS_MASTER_KEY_ID).isEmpty()
        && "true".equalsIgnoreCase(changes.get(SQS_MANAGED_SSE_ENABLED))) {
      throw new SqsException(
          ErrorCode.INVALID_ATTRIBUTE_NAME,
          "You can use one type of server-side encryption (SSE) at one time. You can either enable"
              + " KMS SSE or SQS SSE.");
    }
    for (Map.Entry<String, String> e : changes.entrySet()) {
      String name = e.getKey();
      String value = canonical(name, e.getValue());
      if (value == null) {
        m.remove(name);
        if (name.equals(KMS_MASTER_KEY_ID)) {
          m.remove(KMS_DATA_KEY_REUSE_PERIOD_SECONDS);
        }
        continue;
      }
      m.put(name, value);
      // One kind of server-side encryption at a time: choosing one switches the other off (AWS API reference:
      // SetQueueAttributes).
      if (name.equals(KMS_MASTER_KEY_ID)) {
        m.put(SQS_MANAGED_SSE_ENABLED, "false");
      } else if (name.equals(SQS_MANAGED_SSE_ENABLED) && value.equals("true")) {
        m.remove(KMS_MASTER_KEY_ID);
        m.remove(KMS_DATA_KEY_REUSE_PERIOD_SECONDS);
      }
    }
    if (fifo
        && "perMessageGroupId".equals(m.get(FIFO_THROUGHPUT_LIMIT))
        && !"messageGroup".equals(m.get(DEDUPLICATION_SCOPE))) {
      throw invalidValue(FIFO_THROUGHPUT_LIMIT);
    }
    return new QueueAttributes(fifo, m);
  }

  /**
   * The name of the first given attribute whose canonical value differs from this queue's current
   * one, or null when all match: CreateQueue on an existing name succeeds only then (AWS API reference: CreateQueue).
   */
  public String firstDifference(Map<String, String> given) {
    for (Map.Entry<String, String> e : given.entrySet()) {
      String value = canonical(e.getKey(), e.getValue());
      String current = shown(e.getKey());
      if (value == null ? current != null : !value.equals(current)) {
        return e.getKey();
      }
    }
    return null;
  }

  /**
   * Validates one attribute and returns its canonical form, or null when the (empty) value removes
   * it. Error codes and texts follow the CreateQueue and SetQueueAttributes pages of the AWS API reference.
   */
  String canonical(String name, String value) {
    if (!fifo && FIFO_ONLY.contains(name)) {
      String text =
          switch (name) {
            case DEDUPLICATION_SCOPE, FIFO_THROUGHPUT_LIMIT ->
                "You can specify the " + name + " only when FifoQueue is set to true.";
            default -> "Unknown Attribute " + name + ".";
          };
      throw new SqsException(ErrorCode.INVALID_ATTRIBUTE_NAME, text);
    }
    if (value == null) {
      throw invalidValue(name);
    }
    return switch (name) {
      case DELAY_SECONDS -> intInRange(name, value, 0, Limits.DELAY_SECONDS_MAX);
      case MAXIMUM_MESSAGE_SIZE ->
          intInRange(name, value, Limits.MESSAGE_SIZE_MIN, Limits.MESSAGE_SIZE_MAX);
      case MESSAGE_RETENTION_PERIOD ->
          intInRange(name, value, Limits.RETENTION_SECONDS_MIN, Limits.RETENTION_SECONDS_MAX);
      case RECEIVE_MESSAGE_WAIT_TIME_SECONDS -> intInRange(name, value, 0, Limits.WAIT_SECONDS_MAX);
      case VISIBILITY_TIMEOUT -> intInRange(name, value, 0, Limits.VISIBILITY_SECONDS_MAX);
      case KMS_DATA_KEY_REUSE_PERIOD_SECONDS ->
          intInRange(name, value, Limits.KMS_REUSE_SECONDS_MIN, Limits.KMS_REUSE_SECONDS_MAX);
      case SQS_MANAGED_SSE_ENABLED, CONTENT_BASED_DEDUPLICATION -> bool(name, value);
      case FIFO_QUEUE -> {
        String b = bool(name, value);
        if (b.equals("false")) {
          throw new SqsException(
              ErrorCode.INVALID_ATTRIBUTE_VALUE,
              "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.");
        }
        yield b;
      }
      case DEDUPLICATION_SCOPE -> oneOf(name, value, "queue", "messageGroup");
      case FIFO_THROUGHPUT_LIMIT -> oneOf(name, value, "perQueue", "perMessageGroupId");
      case POLICY -> policy(value);
      case RedrivePolicy.NAME -> value.isEmpty() ? null : RedrivePolicy.parse(value, fifo).toJson();
      case RedriveAllowPolicy.NAME -> value.isEmpty() ? null : RedriveAllowPolicy.parse(value).toJson();
      case KMS_MASTER_KEY_ID -> value.isEmpty() ? null : value;
      default -> throw new SqsException(ErrorCode.INVALID_ATTRIBUTE_NAME, "Unknown Attribute " + name + ".");
    };
  }

  private static String intInRange(String name, String value, int min, int max) {
    if (value.isEmpty() || value.length() > 10 || !value.chars().allMatch(Character::isDigit)) {
      throw invalidValue(name);
    }
    long v = Long.parseLong(value);
    if (v < min || v > max) {
      throw invalidValue(name);
    }
    return Long.toString(v);
  }

  private static String bool(String name, String value) {
    if (value.equalsIgnoreCase("true")) {
      return "true";
    }
    if (value.equalsIgnoreCase("false")) {
      return "false";
    }
    throw invalidValue(name);
  }

  private static String oneOf(String name, String value, String a, String b) {
    if (value.equals(a) || value.equals(b)) {
      return value;
    }
    throw invalidValue(name);
  }

  /** Validated as SQS validates a Policy (see QueuePolicy), and kept as written: AWS shows it back unchanged. */
  private static String policy(String value) {
    if (value.isEmpty()) {
      return null;
    }
    try {
      QueuePolicy.parse(value, JsonText::parseObject);
    } catch (PolicyException e) {
      throw e.asAttributeError();
    }
    return value;
  }

  static SqsException invalidValue(String name) {
    return new SqsException(ErrorCode.INVALID_ATTRIBUTE_VALUE, "Invalid value for the parameter " + name + ".");
  }

  /** Canonical values of every stored attribute, as GetQueueAttributes shows them. */
  public Map<String, String> stored() {
    return stored;
  }

  /** The value GetQueueAttributes shows, or null when the attribute is absent. */
  public String shown(String name) {
    if (name.equals(KMS_DATA_KEY_REUSE_PERIOD_SECONDS)) {
      // Shown only while a KMS key is set, with AWS's implied default (AWS API reference: SetQueueAttributes).
      return stored.containsKey(KMS_MASTER_KEY_ID) ? stored.getOrDefault(name, "300") : null;
    }
    return stored.get(name);
  }

  public boolean fifo() {
    return fifo;
  }

  public int delaySeconds() {
    return delaySeconds;
  }

  public int maximumMessageSize() {
    return maximumMessageSize;
  }

  public long retentionMillis() {
    return retentionSeconds * 1000L;
  }

  public int waitSeconds() {
    return waitSeconds;
  }

  public int visibilitySeconds() {
    return visibilitySeconds;
  }

  public String policy() {
    return stored.get(POLICY);
  }

  /** The parsed Policy the access rules evaluate, or null when the queue has none or it cannot be read. */
  public PolicyDocument policyDocument() {
    return policyDocument;
  }

  /**
   * Why a restored Policy cannot be read, or null. Such a policy grants nothing and denies nothing:
   * whoever evaluates access decides how to treat a queue that has one (and may log this reason).
   */
  public PolicyException policyRejection() {
    return policyRejection;
  }

  public boolean contentBasedDeduplication() {
    return "true".equals(stored.get(CONTENT_BASED_DEDUPLICATION));
  }

  /** The redrive policy, or null when the queue has none. */
  public RedrivePolicy redrivePolicy() {
    return redrivePolicy;
  }

  /** Whether this queue may be the dead-letter queue of {@code sourceArn}. */
  public boolean allowsDeadLetterSource(String sourceArn) {
    return redriveAllowPolicy == null || redriveAllowPolicy.allows(sourceArn);
  }
}
