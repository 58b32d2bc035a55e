package dev.sluice.persistence;

/**
 * One queue as the {@code sluice_queues} table holds it (schema V1, with its account and region
 * since V3, and since V5 a FIFO queue's delay rule: the latest sent time that was visible when its
 * DelaySeconds changed, and when it last changed, both {@link Long#MIN_VALUE} if it never did); id
 * is the queue's generation; since V12 its redelivery backoff as JSON, null when it has none.
 */
public record QueueRow(long id, String accountId, String region, String name, long createdAt, long modifiedAt,
    String attributesJson, String tagsJson, long delayReleasedThrough, long delayChangedAt,
    String redeliveryBackoffJson) {

  /** A queue without a redelivery backoff. */
  public QueueRow(long id, String accountId, String region, String name, long createdAt, long modifiedAt,
      String attributesJson, String tagsJson, long delayReleasedThrough, long delayChangedAt) {
    this(id, accountId, region, name, createdAt, modifiedAt, attributesJson, tagsJson, delayReleasedThrough,
        delayChangedAt, null);
  }
}
