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
    assertTrue(sql.selectBatch().contains("FROM \"app\".\"events\" WHERE ")
        && sql.selectBatch().endsWith(" ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED"),
        sql.selectBatch());
    assertTrue(sql.moveToDead().startsWith("INSERT INTO \"app\".\"events_dead\" "), sql.moveToDead());
    assertTrue(sql.delete().startsWith("DELETE FROM \"app\".\"events\" WHERE id = ANY"), sql.delete());
    assertEquals("LISTEN \"sluice_outbox\"", OutboxSql.listen("sluice_outbox"));
    assertTrue(sql.selectBatch().startsWith("SELECT id, queue_name, topic_name, body,"), sql.selectBatch());
    assertTrue(sql.selectBatch().contains("WHERE NOT (coalesce(queue_name, '') = ANY($2::text[])"
        + " OR coalesce(topic_name, '') = ANY($3::text[])) ORDER BY id"), "resting destinations are passed over");
    assertThrows(IllegalArgumentException.class, () -> new OutboxSql("x\"; drop table y; --"));
  }

  @Test
  void aDeadRowKeepsItsDestinationQueueOrTopic() {
    String move = new OutboxSql("sluice_outbox").moveToDead();
    assertTrue(move.contains("(id, queue_name, topic_name, body,"), move);
    assertTrue(move.contains("SELECT o.id, o.queue_name, o.topic_name, o.body,"), move);
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
    assertTrue(ddl.contains("attrelid = '\"app\".\"events\"'::regclass"), ddl);
    assertTrue(ddl.contains("attrelid = '\"app\".\"events_dead\"'::regclass"), ddl);
    assertTrue(ddl.contains("ALTER TABLE \"app\".\"events\" ADD COLUMN IF NOT EXISTS topic_name text;"), ddl);
    assertTrue(ddl.contains("ALTER TABLE \"app\".\"events_dead\" ADD COLUMN IF NOT EXISTS topic_name text;"), ddl);
    assertFalse(ddl.contains("sluice_outbox"), ddl);
    assertTrue(ddl.contains("sluice_notify"), "the trigger's own name is fixed (a trigger's name is per table)");
  }

  @Test
  void bothTablesHaveTopicNameWhetherMadeNowOrByAnEarlierVersion() {
    String ddl = OutboxSql.shippedDdl();
    String outbox = ddl.substring(ddl.indexOf("CREATE TABLE IF NOT EXISTS sluice_outbox ("),
        ddl.indexOf("CREATE TABLE IF NOT EXISTS sluice_outbox_dead ("));
    assertTrue(outbox.contains("  queue_name text,\n  topic_name text,\n"), outbox);
    String dead = ddl.substring(ddl.indexOf("CREATE TABLE IF NOT EXISTS sluice_outbox_dead ("));
    assertTrue(dead.contains("  queue_name text,\n  topic_name text,\n"), dead);
    assertTrue(ddl.contains("ALTER TABLE sluice_outbox ADD COLUMN IF NOT EXISTS topic_name text;"), ddl);
    assertTrue(ddl.contains("ALTER TABLE sluice_outbox_dead ADD COLUMN IF NOT EXISTS topic_name text;"), ddl);
    assertTrue(ddl.indexOf("ALTER TABLE") < ddl.indexOf(OutboxSql.NOTIFY_MARKER),
        "the columns are added without a channel too");
    assertFalse(ddl.contains("CHECK ("), "no row the application inserts fails its transaction because of us");
  }

  @Test
  void noChannelLeavesTheTriggerOut() {
    String ddl = OutboxSql.ddl(OutboxSql.shippedDdl(), "sluice_outbox", "");
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"sluice_outbox_dead\""), ddl);
    assertFalse(ddl.contains("pg_notify"), ddl);
    assertFalse(ddl.contains("CREATE TRIGGER"), ddl);
    assertTrue(ddl.contains("ALTER TABLE \"sluice_outbox_dead\" ADD COLUMN IF NOT EXISTS topic_name text;"), ddl);
  }

  @Test
  void aTableNameThatContainsTheDefaultIsReplacedOnce() {
    String ddl = OutboxSql.ddl(OutboxSql.shippedDdl(), "my_sluice_outbox", "my_sluice_outbox");
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"my_sluice_outbox\" ("), ddl);
    assertTrue(ddl.contains("\"my_sluice_outbox_dead\""), ddl);
    assertFalse(ddl.contains("my_my_"), ddl);
  }
}
