package dev.sluice.engine;

/**
 * The statements of a lazy start-up (design §2.15): what {@link BacklogRecovery} reads instead of
 * the backlog. Each is one index range per queue, bounded by its window and in-flight messages or
 * by its sends of the last delay, never by its backlog. A standard queue's place in delivery order is
 * (first_visible_at, message_key), on {@code sluice_messages_delivery}; a FIFO queue's is
 * (sequence_number, message_key), on the partial index {@code sluice_messages_fifo} (queue_id,
 * sequence_number) WHERE sequence_number > 0, which a statement uses only if it says
 * {@code sequence_number > 0} itself (every FIFO row has a sequence number above 0).
 *
 * <p>Each reads only the queues whose ids it is given: at start-up every queue, in cluster mode the
 * queues of the shards a node takes over.
 */
final class BacklogRecoverySql {
  /**
   * Each queue's of $idsParam persisted frontier F, the highest of its lanes; queues without one
   * have none.
   */
  static String frontiers(int idsParam) {
    return "WITH f AS (SELECT DISTINCT ON (queue_id) queue_id, frontier_major, frontier_minor"
        + " FROM sluice_queue_tallies WHERE queue_id = ANY($" + idsParam + "::bigint[])"
        + " ORDER BY queue_id, frontier_major DESC, frontier_minor DESC)";
  }
  private static final String MIN = "-9223372036854775808";
  private static final String F_MAJOR = "coalesce(f.frontier_major, " + MIN + ")";
  private static final String F_MINOR = "coalesce(f.frontier_minor, " + MIN + ")";

  /**
   * The resident region: every queue's rows up to F, which holds every row ever received, in the
   * queue's order (FIFO messages by sequence, as their groups need them). Standard queues through
   * the delivery index, FIFO queues through the FIFO index. A queue without a frontier has none.
   * $1: the queues' ids.
   */
  static final String RESIDENT = frontiers(1) + " SELECT q.account_id, q.region, q.name, m.message_key, m.message_id,"
      + " m.sent_at, m.sequence_number, m.visible_at, m.receive_count, m.first_receive_at, m.receipt_sequence,"
      + " m.content, m.first_visible_at, m.arrival, m.queue_id, m.in_backoff FROM sluice_queues q"
      + " LEFT JOIN f ON f.queue_id = q.id"
      + " CROSS JOIN LATERAL (SELECT * FROM sluice_messages a WHERE a.queue_id = q.id"
      + " AND a.message_key >= q.purged_below_key AND q.name LIKE '%.fifo' AND a.sequence_number > 0"
      + " AND (a.sequence_number, a.message_key) <= (f.frontier_major, f.frontier_minor)"
      + " UNION ALL SELECT * FROM sluice_messages b WHERE b.queue_id = q.id AND b.message_key >= q.purged_below_key"
      + " AND q.name NOT LIKE '%.fifo' AND (b.first_visible_at, b.message_key) <= (f.frontier_major, f.frontier_minor)) m"
      + " WHERE q.id = ANY($1::bigint[]) ORDER BY m.queue_id, m.sequence_number, m.message_key";

  /**
   * Rows after F not visible at $1, by bucket of $2 ms: the delayed part of each standard queue's
   * backlog, an index range over the sends of the longest delay. $3: the queues' ids.
   */
  static final String FUTURE = frontiers(3) + " SELECT q.id, h.b, h.n FROM sluice_queues q LEFT JOIN f ON f.queue_id = q.id"
      + " CROSS JOIN LATERAL (SELECT m.first_visible_at / $2 * $2 AS b, count(*) AS n FROM sluice_messages m"
      + " WHERE m.queue_id = q.id AND m.first_visible_at > $1 AND m.message_key >= q.purged_below_key"
      // One lower bound for the index range, the later of F and now: given two, PostgreSQL starts
      // the range at F and filters the rest, reading the whole backlog (0.2 s per million rows).
      + " AND (m.first_visible_at, m.message_key) > (greatest($1, " + F_MAJOR + "),"
      + " CASE WHEN $1 > " + F_MAJOR + " THEN 9223372036854775807 ELSE " + F_MINOR + " END) GROUP BY 1) h"
      + " WHERE q.name NOT LIKE '%.fifo' AND q.id = ANY($3::bigint[])";

  /**
   * The sent time of each standard queue's first row after F: its oldest unless delays or dead
   * letters put an older one later (refreshing it exactly is step 5, §2.7). $1: the queues' ids.
   */
  static final String FIRST_SENT = frontiers(1) + " SELECT q.id, p.sent_at FROM sluice_queues q"
      + " LEFT JOIN f ON f.queue_id = q.id CROSS JOIN LATERAL (SELECT m.sent_at FROM sluice_messages m"
      + " WHERE m.queue_id = q.id AND m.message_key >= q.purged_below_key"
      + " AND (m.first_visible_at, m.message_key) > (" + F_MAJOR + ", " + F_MINOR + ")"
      + " ORDER BY m.first_visible_at, m.message_key LIMIT 1) p WHERE q.name NOT LIKE '%.fifo'"
      + " AND q.id = ANY($1::bigint[])";

  /**
   * The FIFO queues of $1 whose rows sent from $2 (per queue) on may be delayed: their rows after F
   * sent with the queue's delay (arrival 0; dead letters and redriven rows are visible when they
   * arrive) from then on, counted by sent-time bucket of $3 ms. Such a row first becomes visible
   * at or after its send, so the range on the delivery index starts at the same bound: it covers
   * the sends of the queue's delay, at most the longest delay. The position filter leaves out
   * {@code sequence_number > 0} on purpose: with it PostgreSQL may walk the FIFO index from F,
   * through the whole backlog.
   */
  static final String FIFO_FUTURE = frontiers(1) + ", s AS (SELECT * FROM unnest($1::bigint[], $2::bigint[])"
      + " AS s(queue_id, sent_from)) SELECT q.id, h.b, h.n FROM s JOIN sluice_queues q ON q.id = s.queue_id"
      + " LEFT JOIN f ON f.queue_id = q.id CROSS JOIN LATERAL (SELECT m.sent_at / $3::bigint * $3::bigint AS b,"
      + " count(*) AS n FROM sluice_messages m WHERE m.queue_id = q.id AND m.first_visible_at >= s.sent_from"
      + " AND m.sent_at >= s.sent_from AND m.arrival = 0 AND m.message_key >= q.purged_below_key"
      + " AND (m.sequence_number, m.message_key) > (" + F_MAJOR + ", " + F_MINOR + ") GROUP BY 1) h";

  /**
   * The sent time of each FIFO queue's first row after F in sequence order: its oldest, as sent
   * times follow sequence numbers, unless dead letters put an older one later (as for standard
   * queues, §2.7). $1: the queues' ids.
   */
  static final String FIFO_FIRST_SENT = frontiers(1) + " SELECT q.id, p.sent_at FROM sluice_queues q"
      + " LEFT JOIN f ON f.queue_id = q.id CROSS JOIN LATERAL (SELECT m.sent_at FROM sluice_messages m"
      + " WHERE m.queue_id = q.id AND m.sequence_number > 0 AND m.message_key >= q.purged_below_key"
      + " AND (m.sequence_number, m.message_key) > (" + F_MAJOR + ", " + F_MINOR + ")"
      + " ORDER BY m.sequence_number, m.message_key LIMIT 1) p WHERE q.name LIKE '%.fifo'"
      + " AND q.id = ANY($1::bigint[])";

  /**
   * Each FIFO queue's largest sequence number stored (purged rows too: numbers given out once are
   * never given again), one backward probe of the FIFO index: most rows are not restored, so the
   * queue cannot learn it from them. $1: the queues' ids.
   */
  static final String LAST_SEQUENCE = "SELECT q.id, (SELECT max(m.sequence_number) FROM sluice_messages m"
      + " WHERE m.queue_id = q.id AND m.sequence_number > 0) FROM sluice_queues q WHERE q.name LIKE '%.fifo'"
      + " AND q.id = ANY($1::bigint[])";

  private BacklogRecoverySql() {}
}
