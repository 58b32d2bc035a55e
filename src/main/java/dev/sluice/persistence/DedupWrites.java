package dev.sluice.persistence;

import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.UUID;

/**
 * The part of a batch's one statement ({@link BatchWriter#messages}) that writes FIFO deduplication
 * entries (the latest wins per queue and key), and the deletion of a purged or deleted queue's.
 */
final class DedupWrites {
  private static final String[] TYPES = {"bigint", "text", "uuid", "bigint", "bigint"};
  /** Parameters the part takes, from its first. */
  static final int PARAMETERS = TYPES.length;
  /** A purge clears the history too (AWS API reference: PurgeQueue); a deleted queue's goes with it. */
  static final String DELETE_OF_QUEUES = "DELETE FROM sluice_dedup WHERE queue_id = ANY($1::bigint[])";

  private DedupWrites() {}

  static String cte(int firstParam) {
    return "INSERT INTO sluice_dedup (queue_id, dedup_key, message_id, sequence_number, expires_at) SELECT * FROM "
        + BatchWriter.unnest(firstParam, TYPES) + " ON CONFLICT (queue_id, dedup_key) DO UPDATE SET"
        + " message_id = EXCLUDED.message_id, sequence_number = EXCLUDED.sequence_number,"
        + " expires_at = EXCLUDED.expires_at";
  }

  static void addParameters(Tuple t, List<DedupRow> rows) {
    int n = rows.size();
    Long[] queueIds = new Long[n];
    String[] keys = new String[n];
    UUID[] ids = new UUID[n];
    Long[] sequence = new Long[n];
    Long[] expiresAt = new Long[n];
    for (int i = 0; i < n; i++) {
      DedupRow r = rows.get(i);
      queueIds[i] = r.queueId();
      keys[i] = r.dedupKey();
      ids[i] = r.messageId();
      sequence[i] = r.sequenceNumber();
      expiresAt[i] = r.expiresAt();
    }
    t.addArrayOfLong(queueIds).addArrayOfString(keys).addArrayOfUUID(ids).addArrayOfLong(sequence)
        .addArrayOfLong(expiresAt);
  }
}
