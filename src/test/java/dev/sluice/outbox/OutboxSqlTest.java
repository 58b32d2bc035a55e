package dev.sluice.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The relay's statements name the configured table, quoted; the shipped DDL is rewritten for other names. */
class OutboxSqlTest {
  @Test
  void statementsQuoteTheTableAndItsDeadRowTable() {
    OutboxSql sql = new OutboxSql("app.events");
    assertTrue(sql.selectBatch().contains("FROM \"app\".\"events\" ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED"),
        sql.selectBatch());
    assertTrue(sql.moveToDead().startsWith("INSERT INTO \"app\".\"events_dead\" "), sql.moveToDead());
    assertTrue(sql.delete().startsWith("DELETE FROM \"app\".\"events\" WHERE id = ANY"), sql.delete());
    assertEquals("LISTEN \"sluice_outbox\"", OutboxSql.listen("sluice_outbox"));
    assertThrows(IllegalArgumentException.class, () -> new OutboxSql("x\"; drop table y; --"));
  }

  @Test
  void theLeaseKeyIsStableAndPerTable() {
    assertEquals(OutboxSql.leaseKey("sluice_outbox"), OutboxSql.leaseKey("sluice_outbox"));
    assertNotEquals(OutboxSql.leaseKey("sluice_outbox"), OutboxSql.leaseKey("app.sluice_outbox"));
    // Pinned: every Sluice version must take the same lock, or an old and a new one would relay at once.
    assertEquals(-5376775969831334531L, OutboxSql.leaseKey("sluice_outbox"));
  }

  @Test
  void theShippedDdlForTheDefaultNamesSaysTheSame() {
    String ddl = OutboxSql.ddl(OutboxSql.shippedDdl(), "sluice_outbox", "sluice_outbox");
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"sluice_outbox\" ("), ddl);
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"sluice_outbox_dead\" ("), ddl);
    assertTrue(ddl.contains("pg_notify('sluice_outbox', '')"), ddl);
    assertTrue(ddl.contains("EXECUTE FUNCTION \"sluice_outbox_notify\"()"), ddl);
    assertEquals(OutboxSql.shippedDdl().replaceAll("\"", ""), ddl.replaceAll("\"", ""),
        "only quotes added");
  }

  @Test
  void theDdlIsRewrittenForAnotherTableAndChannel() {
    String ddl = OutboxSql.ddl(OutboxSql.shippedDdl(), "app.events", "app_events");
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"app\".\"events\" ("), ddl);
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"app\".\"events_dead\" ("), ddl);
    assertTrue(ddl.contains("FUNCTION \"app\".\"events_notify\"()"), ddl);
    assertTrue(ddl.contains("pg_notify('app_events', '')"), ddl);
    assertTrue(ddl.contains("tgrelid = '\"app\".\"events\"'::regclass"), ddl);
    assertTrue(ddl.contains("AFTER INSERT ON \"app\".\"events\""), ddl);
    assertFalse(ddl.contains("sluice_outbox"), ddl);
    assertTrue(ddl.contains("sluice_notify"), "the trigger's own name is fixed (a trigger's name is per table)");
  }

  @Test
  void noChannelLeavesTheTriggerOut() {
    String ddl = OutboxSql.ddl(OutboxSql.shippedDdl(), "sluice_outbox", "");
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"sluice_outbox_dead\""), ddl);
    assertFalse(ddl.contains("pg_notify"), ddl);
    assertFalse(ddl.contains("CREATE TRIGGER"), ddl);
  }

  @Test
  void aTableNameThatContainsTheDefaultIsReplacedOnce() {
    String ddl = OutboxSql.ddl(OutboxSql.shippedDdl(), "my_sluice_outbox", "my_sluice_outbox");
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"my_sluice_outbox\" ("), ddl);
    assertTrue(ddl.contains("\"my_sluice_outbox_dead\""), ddl);
    assertFalse(ddl.contains("my_my_"), ddl);
  }
}
