package dev.sluice.triggers;

import dev.sluice.model.JsonText;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a target's answer to a batch says of its records, with {@code ReportBatchItemFailures} (AWS
 * Lambda Developer Guide: Handling errors for an SQS event source in Lambda, "Reporting batch item
 * failures"): every record succeeded for {@code null}, {@code {}}, or a {@code batchItemFailures}
 * that is missing, null or empty (and, for a plain HTTP target, an empty answer); the records named
 * by {@code itemIdentifier} failed and the others succeeded; and the whole batch failed for anything
 * else, as Lambda fails it: a body that is not a JSON object, a {@code batchItemFailures} that is not
 * a list, an item that is not an object, or an {@code itemIdentifier} that is missing, not a
 * string, empty, or not one of the batch's message ids (AWS-recorded: {@code {"batchItemFailures":
 * [{"foo": "notvalid"}]}} fails the whole batch). An identifier named twice counts once. Immutable.
 *
 * @param failed the message ids that failed; every id of the batch when the whole batch failed
 */
public record BatchResponse(Set<String> failed, boolean wholeBatchFailed) {

  /** Reads {@code body}, the answer to the batch of {@code messageIds}; {@code emptySucceeds} for a plain HTTP target. */
  public static BatchResponse read(String body, List<String> messageIds, boolean emptySucceeds) {
    if (body == null || body.isBlank()) {
      return emptySucceeds ? succeeded() : failed(messageIds);
    }
    Object parsed;
    try {
      parsed = JsonText.parse(body);
    } catch (IllegalArgumentException notJson) {
      return failed(messageIds);
    }
    if (parsed == null) {
      return succeeded();
    }
    if (!(parsed instanceof Map<?, ?> answer)) {
      return failed(messageIds);
    }
    Object items = answer.get("batchItemFailures");
    if (items == null) {
      return succeeded();
    }
    if (!(items instanceof List<?> list)) {
      return failed(messageIds);
    }
    Set<String> failed = new LinkedHashSet<>();
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> m) || !(m.get("itemIdentifier") instanceof String id) || id.isEmpty()
          || !messageIds.contains(id)) {
        return failed(messageIds);
      }
      failed.add(id);
    }
    return new BatchResponse(Set.copyOf(failed), false);
  }

  static BatchResponse succeeded() {
    return new BatchResponse(Set.of(), false);
  }

  /** The whole batch failed: none of its records is deleted. */
  public static BatchResponse failed(List<String> messageIds) {
    return new BatchResponse(Set.copyOf(messageIds), true);
  }

  /** Whether every record succeeded. */
  public boolean allSucceeded() {
    return failed.isEmpty();
  }

  /**
   * The records to delete, of a batch of {@code messageIds} in the order they were received; on a
   * FIFO queue {@code groupIds} gives each record's group (null on a standard queue), and a record
   * that failed keeps the records after it in its group too, so that the group's order holds when
   * they come again.
   */
  public List<String> deletable(List<String> messageIds, List<String> groupIds) {
    List<String> out = new java.util.ArrayList<>(messageIds.size());
    Set<String> stopped = new java.util.HashSet<>();
    for (int i = 0; i < messageIds.size(); i++) {
      String id = messageIds.get(i);
      String group = groupIds == null ? null : groupIds.get(i);
      if (group != null && stopped.contains(group)) {
        continue;
      }
      if (failed.contains(id)) {
        if (group != null) {
          stopped.add(group);
        }
        continue;
      }
      out.add(id);
    }
    return out;
  }
}
