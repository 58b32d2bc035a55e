package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

/**
 * Queues stored by a schema before version 3 have no account and region (see
 * {@code V3__queue_accounts_and_regions.sql}): they were the queues of the one account and region a
 * server had then, so they become the default account's (sqs.accountId) in the default region
 * (sqs.region). Done at start-up, once the database is claimed and before recovery, fenced like
 * every write; later starts find nothing left to adopt.
 */
final class UnownedQueues {
  static final String ADOPT = "WITH f AS (SELECT sluice_fence($3) AS epoch)"
      + " UPDATE sluice_queues SET account_id = coalesce(account_id, $1), region = coalesce(region, $2)"
      + " FROM f WHERE account_id IS NULL OR region IS NULL";

  private UnownedQueues() {}

  /** Gives every queue without an account and region the defaults; answers how many it changed. */
  static Future<Integer> adopt(Pool pool, long epoch, String accountId, String region) {
    return pool.preparedQuery(ADOPT).execute(Tuple.of(accountId, region, epoch)).map(rows -> rows.rowCount());
  }
}
