package dev.sluice.engine;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Whole-request checks every batch action shares, in the order SQS applies them: empty, too many,
 * then entry ids malformed or repeated. Stateless.
 */
final class BatchRules {
  private BatchRules() {}

  /**
   * Checks a batch's entries by their ids, {@code entryName} naming an entry in the error text:
   * EmptyBatchRequest, TooManyEntriesInBatchRequest, InvalidBatchEntryId, BatchEntryIdsNotDistinct.
   */
  static <E> void checkEntryIds(List<E> entries, Function<E, String> idOf, String entryName) {
    if (entries == null || entries.isEmpty()) {
      throw new SqsException(
          ErrorCode.EMPTY_BATCH_REQUEST, "There should be at least one " + entryName + " in the request.");
    }
    if (entries.size() > Limits.MAX_BATCH_ENTRIES) {
      throw new SqsException(
          ErrorCode.TOO_MANY_ENTRIES_IN_BATCH_REQUEST,
          "Maximum number of entries per request are 10. You have sent " + entries.size() + ".");
    }
    List<String> ids = entries.stream().map(idOf).toList();
    // Malformed ids are reported before repeated ones, whatever their positions.
    for (String id : ids) {
      if (!validId(id)) {
        throw new SqsException(
            ErrorCode.INVALID_BATCH_ENTRY_ID,
            "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be"
                + " at most 80 letters long.");
      }
    }
    Set<String> seen = new HashSet<>();
    for (String id : ids) {
      if (!seen.add(id)) {
        throw new SqsException(ErrorCode.BATCH_ENTRY_IDS_NOT_DISTINCT, "Id " + id + " repeated.");
      }
    }
  }

  private static boolean validId(String id) {
    return id != null
        && !id.isEmpty()
        && id.length() <= Limits.BATCH_ENTRY_ID_MAX_LENGTH
        && id.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_'));
  }
}
