package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The writer's statements stay within the SQL length the client keeps prepared: one that grew past
 * it would be parsed and planned again for every batch, with nothing failing, only everything
 * slower (it halved durable send throughput once).
 */
class StatementCacheTest {
  @Test
  void everyStatementTheWriterRunsPerBatchIsShortEnoughToStayPrepared() {
    for (String sql : List.of(BatchWriter.messages(new DatabaseFence(1), false),
        BatchWriter.messages(new DatabaseFence(1), true), BatchWriter.messages(ShardFence.of(1, 1), false),
        BatchWriter.messages(ShardFence.of(1, 1), true), Reaper.CHUNK,
        BacklogSql.STANDARD_PAGE, BacklogSql.FIFO_PAGE)) { // and the page reads, run as often
      assertTrue(sql.length() <= DurableStore.STATEMENT_CACHE_SQL_LIMIT,
          sql.length() + " characters: " + sql.substring(0, 60));
    }
  }
}
