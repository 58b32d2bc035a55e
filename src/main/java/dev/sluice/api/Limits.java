package dev.sluice.api;

/**
 * SQS limits and defaults (AWS API reference: SetQueueAttributes; the SQS quotas guide). Times in
 * seconds unless the name says so.
 */
public final class Limits {
  private Limits() {}

  public static final int QUEUE_NAME_MAX_LENGTH = 80;
  public static final int MAX_BATCH_ENTRIES = 10;
  public static final int BATCH_ENTRY_ID_MAX_LENGTH = 80;
  public static final int MAX_BATCH_PAYLOAD_BYTES = 1_048_576;
  /**
   * The body of any request but a send is small (attributes, tags, a policy of at most 8 KiB, ten
   * receipt handles): refused past this many bytes before it is read.
   */
  public static final int OTHER_REQUEST_MAX_BYTES = 262_144;

  public static final int DELAY_SECONDS_MAX = 900;
  public static final int MESSAGE_SIZE_MIN = 1024;
  public static final int MESSAGE_SIZE_MAX = 1_048_576;
  public static final int RETENTION_SECONDS_MIN = 60;
  public static final int RETENTION_SECONDS_MAX = 1_209_600;
  public static final int RETENTION_SECONDS_DEFAULT = 345_600;
  public static final int WAIT_SECONDS_MAX = 20;
  public static final int VISIBILITY_SECONDS_MAX = 43_200;
  public static final int VISIBILITY_SECONDS_DEFAULT = 30;
  public static final int KMS_REUSE_SECONDS_MIN = 60;
  public static final int KMS_REUSE_SECONDS_MAX = 86_400;

  public static final int MAX_MESSAGES_PER_RECEIVE = 10;
  public static final int MAX_MESSAGE_ATTRIBUTES = 10;
  public static final int ATTRIBUTE_NAME_MAX_LENGTH = 256;
  public static final int ATTRIBUTE_TYPE_MAX_LENGTH = 256;
  public static final int GROUP_OR_DEDUP_ID_MAX_LENGTH = 128;

  public static final int LIST_QUEUES_MAX_RESULTS = 1000;
  public static final int MAX_TAGS = 50;
  public static final int TAG_KEY_MAX_LENGTH = 128;
  public static final int TAG_VALUE_MAX_LENGTH = 256;

  public static final int PERMISSION_LABEL_MAX_LENGTH = 80;
  /** The policy quotas (the SQS policy quotas guide); AddPermission's Actions count per statement. */
  public static final int MAX_ACTIONS_PER_PERMISSION = 7;
  public static final int MAX_POLICY_STATEMENTS = 20;
  public static final int MAX_POLICY_PRINCIPALS = 50;
  public static final int MAX_POLICY_CONDITIONS = 10;
  public static final int POLICY_MAX_BYTES = 8192;

  public static final long PURGE_INTERVAL_MILLIS = 60_000;
  public static final long QUEUE_RECREATE_WAIT_MILLIS = 60_000;
  public static final long DEDUPLICATION_WINDOW_MILLIS = 300_000;

  // The console's peek (design/console.md §2.5), not an SQS limit: bounds on one shard call.
  public static final int PEEK_MAX_MESSAGES_MAX = 50;
  public static final int PEEK_MAX_MESSAGES_DEFAULT = 20;
  /** {@code offset + maxMessages} at most this: one peek walks at most this many list links. */
  public static final int PEEK_WINDOW_MESSAGES = 10_000;
  public static final int PEEK_PREVIEW_BYTES_MAX = 65_536;
  public static final int PEEK_PREVIEW_BYTES_DEFAULT = 2_048;
  /** A page stops adding messages once their previews (bodies and attribute values) pass this. */
  public static final int PEEK_ANSWER_PREVIEW_BYTES = 1_048_576;
  /** Each attribute value a peek shows is cut to this many bytes. */
  public static final int PEEK_ATTRIBUTE_VALUE_BYTES = 256;
}
