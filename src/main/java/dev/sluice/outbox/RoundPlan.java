package dev.sluice.outbox;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.RelaySend;
import dev.sluice.api.topics.SnsErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a round sends: its rows grouped by destination (a queue or a topic), each destination's rows
 * in id order and cut into chunks of at most {@link #CHUNK} (one engine call each; a FIFO
 * destination's sent one after the other, so that a group's order holds across chunks); and the
 * rows refused before sending, whose attributes or destination cannot be read. Pure, immutable once
 * made.
 */
final class RoundPlan {
  /**
   * The most entries of one engine call. The queue's shard stores them in one turn and one commit
   * of its store: with ten (a SendMessageBatch's size), a round of a hundred rows to one FIFO queue
   * waited for ten commits one after the other, and the relay managed about a hundred rows a second
   * while the application committed (loadtest/RESULTS.md). A hundred sends stay well under a
   * millisecond of the shard's loop.
   */
  static final int CHUNK = 100;
  /** A queue name as SQS allows it; anything else could not name a queue, and could bend its URL. */
  private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,75}(\\.fifo)?|[A-Za-z0-9_-]{1,80}");
  /** A topic name as SNS allows it (CreateTopic): 1 to 256 characters, a FIFO topic's .fifo counted in. */
  private static final Pattern TOPIC_NAME = Pattern.compile("[A-Za-z0-9_-]{1,251}\\.fifo|[A-Za-z0-9_-]{1,256}");

  /** A destination's chunks, in order. */
  record Sends(Destination destination, List<List<RelaySend.Entry>> chunks) {}

  private final List<Sends> sends;
  private final List<DeadRow> refused;
  private final int rows;

  private RoundPlan(List<Sends> sends, List<DeadRow> refused, int rows) {
    this.sends = sends;
    this.refused = refused;
    this.rows = rows;
  }

  /** Plans {@code rows}, which the round read in id order. */
  static RoundPlan of(List<OutboxRow> rows) {
    return of(rows, CHUNK);
  }

  /** Plans {@code rows} in chunks of at most {@code chunk} (tests use small ones). */
  static RoundPlan of(List<OutboxRow> rows, int chunk) {
    Map<Destination, List<RelaySend.Entry>> byDestination = new LinkedHashMap<>();
    List<DeadRow> refused = new ArrayList<>();
    for (OutboxRow row : rows) {
      try {
        Destination to = destination(row);
        RelaySend.Entry entry = entry(row);
        byDestination.computeIfAbsent(to, d -> new ArrayList<>()).add(entry);
      } catch (RowRefusedException e) {
        refused.add(e.dead(row.id()));
      }
    }
    List<Sends> sends = new ArrayList<>();
    byDestination.forEach((to, entries) -> {
      List<List<RelaySend.Entry>> chunks = new ArrayList<>();
      for (int from = 0; from < entries.size(); from += chunk) {
        chunks.add(List.copyOf(entries.subList(from, Math.min(entries.size(), from + chunk))));
      }
      sends.add(new Sends(to, List.copyOf(chunks)));
    });
    return new RoundPlan(List.copyOf(sends), List.copyOf(refused), rows.size());
  }

  /** The one destination {@code row} names, queue or topic, if its name could name one. */
  private static Destination destination(OutboxRow row) throws RowRefusedException {
    String queue = row.queueName();
    String topic = row.topicName();
    if (queue == null && topic == null) {
      throw new RowRefusedException(ErrorCode.MISSING_PARAMETER, "queue_name and topic_name are both null: a row"
          + " names one destination, a queue or a topic");
    }
    if (queue != null && topic != null) {
      throw new RowRefusedException(ErrorCode.INVALID_PARAMETER_VALUE, "queue_name '" + abbreviated(queue)
          + "' and topic_name '" + abbreviated(topic) + "' are both set: a row names one destination, a queue"
          + " or a topic");
    }
    if (topic != null) {
      if (!TOPIC_NAME.matcher(topic).matches()) {
        throw new RowRefusedException(SnsErrorCode.NOT_FOUND, "topic_name '" + abbreviated(topic) + "' is not a"
            + " topic name: 1 to 256 letters, digits, '-' or '_', a FIFO topic's ending in .fifo");
      }
      return Destination.topic(topic);
    }
    if (!QUEUE_NAME.matcher(queue).matches()) {
      throw new RowRefusedException(ErrorCode.QUEUE_DOES_NOT_EXIST, "queue_name '" + abbreviated(queue) + "' is not"
          + " a queue name: 1 to 80 letters, digits, '-' or '_', a FIFO queue's ending in .fifo");
    }
    return Destination.queue(queue);
  }

  private static RelaySend.Entry entry(OutboxRow row) throws RowRefusedException {
    if (row.body() == null) {
      throw new RowRefusedException(ErrorCode.MISSING_PARAMETER, "body is null: a message needs a body");
    }
    return new RelaySend.Entry(row.id(), row.body(), row.delaySeconds(),
        MessageAttributesJson.parse(row.attributesJson()), row.groupId(), row.deduplicationId());
  }

  private static String abbreviated(String s) {
    return s.length() <= 100 ? s : s.substring(0, 100) + "...";
  }

  /** Each destination's chunks, destinations in the order of their first rows. */
  List<Sends> sends() {
    return sends;
  }

  /** Rows that go to the dead-row table without being sent. */
  List<DeadRow> refused() {
    return refused;
  }

  /** How many rows the round read: a full batch means more may be waiting. */
  int rows() {
    return rows;
  }
}
