package dev.sluice.metrics;

/**
 * Every metric Sluice exports, in Micrometer's dotted form; Prometheus shows them with underscores
 * and a unit suffix (sluice.queue.oldest.message.age → sluice_queue_oldest_message_age_seconds).
 * The metrics table of src/site/markdown/operations.md and the Kubernetes autoscaling examples use these names; tests keep
 * them in agreement.
 */
public final class MetricNames {
  /** Where the Prometheus text is served, on the HTTP port. */
  public static final String SCRAPE_PATH = "/metrics";

  /** Tag naming the queue of a per-queue gauge. */
  public static final String QUEUE_TAG = "queue";
  /** Tag naming the account of a per-queue gauge's queue. */
  public static final String ACCOUNT_TAG = "account";
  /** Tag naming the region of a per-queue gauge's queue. */
  public static final String REGION_TAG = "region";
  /** Tag naming the SQS action of a request. */
  public static final String ACTION_TAG = "action";
  /** Tag naming the SQS error code of a failed request, "none" when it succeeded. */
  public static final String ERROR_TAG = "error";
  /** Tag naming a trigger (its UUID). */
  public static final String TRIGGER_TAG = "trigger";
  /** Tag naming how an invoke ended: success, partial or failure. */
  public static final String OUTCOME_TAG = "outcome";
  /** Tag naming the kind of a trigger's error. */
  public static final String KIND_TAG = "kind";
  /** Tag naming what became of a trigger's records. */
  public static final String RESULT_TAG = "result";

  /** Messages a receive could return now (ApproximateNumberOfMessages). */
  public static final String QUEUE_VISIBLE = "sluice.queue.messages.visible";
  /** Messages received and neither deleted nor visible again (ApproximateNumberOfMessagesNotVisible). */
  public static final String QUEUE_INFLIGHT = "sluice.queue.messages.inflight";
  /** Messages still in their delay (ApproximateNumberOfMessagesDelayed). */
  public static final String QUEUE_DELAYED = "sluice.queue.messages.delayed";
  /** Age of the oldest message in the queue, in seconds; 0 when empty. */
  public static final String QUEUE_OLDEST_AGE = "sluice.queue.oldest.message.age";

  /** Timer of SQS requests, tagged with action and error. */
  public static final String REQUESTS = "sluice.requests";
  /** The SNS topic a series is about (with {@link #ACCOUNT_TAG} and {@link #REGION_TAG}). */
  public static final String TOPIC_TAG = "topic";
  /** Publishes a topic accepted (FIFO duplicates not counted). */
  public static final String TOPIC_PUBLISHED = "sluice.topic.published";
  /** Copies a topic's publishes stored in subscribed queues. */
  public static final String TOPIC_DELIVERED = "sluice.topic.delivered";
  /** Subscriptions a publish's filter policy kept it from, summed over publishes. */
  public static final String TOPIC_FILTERED = "sluice.topic.filtered";
  /** Copies dropped (a queue gone or refusing them) or not stored (a publish failed and retried). */
  public static final String TOPIC_FAILED = "sluice.topic.failed";
  /** Long polls waiting for a message. */
  public static final String PARKED_RECEIVES = "sluice.receives.parked";
  /**
   * Rows page reads brought back that were in memory already (durable mode with paging); a defect
   * if ever above 0, which tests assert.
   */
  public static final String BACKLOG_DUPLICATE_ROWS = "sluice.backlog.duplicate.rows";
  /** Open push subscriptions over the event-bus bridge. */
  public static final String PUSH_SUBSCRIPTIONS = "sluice.push.subscriptions";
  /** Open console live-update streams. */
  public static final String CONSOLE_STREAMS = "sluice.console.streams";
  /** Bytes the console's history holds: its rows and series (design/console.md §2.4). */
  public static final String CONSOLE_HISTORY = "sluice.console.history";
  /** Queues and topics whose history the console keeps. */
  public static final String CONSOLE_HISTORY_SERIES = "sluice.console.history.series";
  /** Bytes of messages held against the memory budget. */
  public static final String MEMORY_USED = "sluice.memory.budget.used";
  /** The memory budget itself, in bytes. */
  public static final String MEMORY_LIMIT = "sluice.memory.budget.limit";
  /** Bytes of the live message records in the shards' content slabs (design/tails.md §2.6). */
  public static final String SLAB_LIVE = "sluice.memory.slab.live";
  /** Bytes of the chunks the shards' content slabs hold: live records, freed space and open tails. */
  public static final String SLAB_ALLOCATED = "sluice.memory.slab.allocated";

  /** Changes written per PostgreSQL batch. */
  public static final String PERSISTENCE_BATCH_SIZE = "sluice.persistence.batch.size";
  /** Time to write and commit one batch. */
  public static final String PERSISTENCE_FLUSH = "sluice.persistence.flush";
  /** Age of the oldest change not yet committed, in seconds. */
  public static final String PERSISTENCE_LAG = "sluice.persistence.lag";
  /** Changes waiting to be written. */
  public static final String PERSISTENCE_PENDING = "sluice.persistence.pending";
  /** Batch attempts that failed (each is retried, or refused for good). */
  public static final String PERSISTENCE_FAILURES = "sluice.persistence.failures";

  private MetricNames() {}

  /** A trigger's invokes, tagged with their outcome. */
  public static final String TRIGGER_INVOCATIONS = "sluice.trigger.invocations";
  /** A trigger's failed invokes and receives, tagged with their kind. */
  public static final String TRIGGER_ERRORS = "sluice.trigger.errors";
  /** Records per invoke of a trigger. */
  public static final String TRIGGER_BATCH_RECORDS = "sluice.trigger.batch.records";
  /** A trigger's records, tagged with what became of them. */
  public static final String TRIGGER_RECORDS = "sluice.trigger.records";
  /** Age of a batch's oldest record when its trigger invoked, in seconds. */
  public static final String TRIGGER_OLDEST_RECORD_AGE = "sluice.trigger.oldest.record.age";
  /** Time of a trigger's invokes, tagged with their outcome. */
  public static final String TRIGGER_INVOKE_DURATION = "sluice.trigger.invoke.duration";
  /** A trigger's invokes in flight. */
  public static final String TRIGGER_CONCURRENCY = "sluice.trigger.concurrency";
  /** A trigger's pollers running. */
  public static final String TRIGGER_POLLERS = "sluice.trigger.pollers";

  /** Tag naming an outbox source (its name in the configuration). */
  public static final String SOURCE_TAG = "source";
  /** Tag naming what woke an outbox relay: notify or poll. */
  public static final String CAUSE_TAG = "cause";
  /** Rows of an outbox relayed: stored as messages (or found stored before) and deleted from the outbox. */
  public static final String OUTBOX_RELAYED = "sluice.outbox.rows.relayed";
  /** Rows of an outbox refused for good and moved to its dead-row table. */
  public static final String OUTBOX_DEAD = "sluice.outbox.rows.dead";
  /** Rows of an outbox whose send failed for now, left for a later round (counted at each try). */
  public static final String OUTBOX_RETRIED = "sluice.outbox.rows.retried";
  /** Age of an outbox's oldest row, in seconds (0 when empty), as this node last read it. */
  public static final String OUTBOX_OLDEST_AGE = "sluice.outbox.oldest.row.age";
  /** Wake-ups of an outbox relay, tagged with their cause. */
  public static final String OUTBOX_WAKEUPS = "sluice.outbox.wakeups";
  /** 1 while this node holds an outbox source's lease (relays it), else 0. */
  public static final String OUTBOX_LEASE = "sluice.outbox.lease";
}
