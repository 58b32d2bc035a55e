package dev.sluice.persistence;

import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.UUID;

/**
 * The parts of a batch's one statement ({@link BatchWriter#messages}) that write outbox receipts:
 * the receipts recorded, inserted in the same statement as their messages, and those forgotten.
 * A retried batch's receipts may be there already: they are the same.
 */
final class RelayReceiptWrites {
  private static final String[] RECORDED_TYPES = {"bigint", "text", "bigint", "uuid"};
  private static final String[] FORGOTTEN_TYPES = {"bigint", "text", "bigint"};
  /** Parameters the two parts take, from their first. */
  static final int PARAMETERS = RECORDED_TYPES.length + FORGOTTEN_TYPES.length;
  /** A deleted queue's receipts go with it. */
  static final String DELETE_OF_QUEUES = "DELETE FROM sluice_relay_receipts WHERE queue_id = ANY($1::bigint[])";

  private RelayReceiptWrites() {}

  /** The two data-modifying CTEs, named {@code rr} and {@code rf}, with parameters from {@code firstParam}. */
  static String ctes(int firstParam) {
    int forgotten = firstParam + RECORDED_TYPES.length;
    return "rr AS (INSERT INTO sluice_relay_receipts (queue_id, source, row_id, message_id) SELECT * FROM "
        + BatchWriter.unnest(firstParam, RECORDED_TYPES) + " ON CONFLICT (queue_id, source, row_id) DO NOTHING),"
        + " rf AS (DELETE FROM sluice_relay_receipts r USING " + BatchWriter.unnest(forgotten, FORGOTTEN_TYPES)
        + " AS g(queue_id, source, row_id) WHERE r.queue_id = g.queue_id AND r.source = g.source"
        + " AND r.row_id = g.row_id)";
  }

  static void addParameters(Tuple t, ChangeBatch batch) {
    List<RelayReceiptRow> recorded = batch.relayReceiptsRecorded();
    int n = recorded.size();
    Long[] queueIds = new Long[n];
    String[] sources = new String[n];
    Long[] rowIds = new Long[n];
    UUID[] messageIds = new UUID[n];
    for (int i = 0; i < n; i++) {
      RelayReceiptRow r = recorded.get(i);
      queueIds[i] = r.queueId();
      sources[i] = r.source();
      rowIds[i] = r.rowId();
      messageIds[i] = r.messageId();
    }
    t.addArrayOfLong(queueIds).addArrayOfString(sources).addArrayOfLong(rowIds).addArrayOfUUID(messageIds);
    List<RelayReceiptRow> forgotten = batch.relayReceiptsForgotten();
    int m = forgotten.size();
    Long[] fQueueIds = new Long[m];
    String[] fSources = new String[m];
    Long[] fRowIds = new Long[m];
    for (int i = 0; i < m; i++) {
      RelayReceiptRow r = forgotten.get(i);
      fQueueIds[i] = r.queueId();
      fSources[i] = r.source();
      fRowIds[i] = r.rowId();
    }
    t.addArrayOfLong(fQueueIds).addArrayOfString(fSources).addArrayOfLong(fRowIds);
  }
}
