package dev.sluice.engine;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whole-request checks every batch action shares, in the order SQS applies them (sqs-reference
 * §5.6): empty, too many, then entry ids malformed or repeated.
 */
final class BatchRules {
  private BatchRules() {}

  static void checkEntryIds(List<String> ids, String entryName) {
    if (ids == null || ids.isEmpty()) {
      throw new SqsException(
          ErrorCode.EMPTY_BATCH_REQUEST, "There should be at least one " + entryName + " in the request.");
    }
    if (ids.size() > Limits.MAX_BATCH_ENTRIES) {
      throw new SqsException(
          ErrorCode.TOO_MANY_ENTRIES_IN_BATCH_REQUEST,
          "Maximum number of entries per request are 10. You have sent " + ids.size() + ".");
    }
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
