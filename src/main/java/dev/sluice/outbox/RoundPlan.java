package dev.sluice.outbox;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.RelaySend;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a round sends: its rows grouped by destination queue, each destination's rows in id order
 * and cut into chunks of at most {@link #CHUNK} (one engine call each, sent one after the other, so
 * that a FIFO group's order holds across chunks); and the rows refused before sending, whose
 * attributes or queue name cannot be read. Pure, immutable once made.
 */
final class RoundPlan {
  /** The most entries of one engine call, as of a SendMessageBatch. */
  static final int CHUNK = 10;
  /** A queue name as SQS allows it; anything else could not name a queue, and could bend its URL. */
  private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,75}(\\.fifo)?|[A-Za-z0-9_-]{1,80}");

  /** A destination's chunks, in order. */
  record Destination(String queueName, List<List<RelaySend.Entry>> chunks) {}

  private final List<Destination> destinations;
  private final List<DeadRow> refused;
  private final int rows;

  private RoundPlan(List<Destination> destinations, List<DeadRow> refused, int rows) {
    this.destinations = destinations;
    this.refused = refused;
    this.rows = rows;
  }

  /** Plans {@code rows}, which the round read in id order. */
  static RoundPlan of(List<OutboxRow> rows) {
    Map<String, List<RelaySend.Entry>> byQueue = new LinkedHashMap<>();
    List<DeadRow> refused = new ArrayList<>();
    for (OutboxRow row : rows) {
      try {
        RelaySend.Entry entry = entry(row);
        byQueue.computeIfAbsent(row.queueName(), q -> new ArrayList<>()).add(entry);
      } catch (RowRefusedException e) {
        refused.add(e.dead(row.id()));
      }
    }
    List<Destination> destinations = new ArrayList<>();
    byQueue.forEach((queue, entries) -> {
      List<List<RelaySend.Entry>> chunks = new ArrayList<>();
      for (int from = 0; from < entries.size(); from += CHUNK) {
        chunks.add(List.copyOf(entries.subList(from, Math.min(entries.size(), from + CHUNK))));
      }
      destinations.add(new Destination(queue, List.copyOf(chunks)));
    });
    return new RoundPlan(List.copyOf(destinations), List.copyOf(refused), rows.size());
  }

  private static RelaySend.Entry entry(OutboxRow row) throws RowRefusedException {
    if (row.queueName() == null || !QUEUE_NAME.matcher(row.queueName()).matches()) {
      throw new RowRefusedException(ErrorCode.QUEUE_DOES_NOT_EXIST, "queue_name "
          + (row.queueName() == null ? "is null" : "'" + abbreviated(row.queueName()) + "' is not a queue name")
          + ": 1 to 80 letters, digits, '-' or '_', a FIFO queue's ending in .fifo");
    }
    if (row.body() == null) {
      throw new RowRefusedException(ErrorCode.MISSING_PARAMETER, "body is null: a message needs a body");
    }
    return new RelaySend.Entry(row.id(), row.body(), row.delaySeconds(),
        MessageAttributesJson.parse(row.attributesJson()), row.groupId(), row.deduplicationId());
  }

  private static String abbreviated(String s) {
    return s.length() <= 100 ? s : s.substring(0, 100) + "...";
  }

  List<Destination> destinations() {
    return destinations;
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
