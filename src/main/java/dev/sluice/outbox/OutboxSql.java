package dev.sluice.outbox;

import dev.sluice.config.OutboxSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements a relay runs on its source's outbox table, with the table's name quoted (it was
 * validated as lower-case identifiers by the configuration, so quoting changes nothing PostgreSQL
 * reads, and nothing in a name can end a quote). Pure, immutable.
 */
final class OutboxSql {
  /** The shipped DDL, written for the default names, which {@link #ddl} replaces. */
  static final String DDL_RESOURCE = "outbox/outbox.sql";
  /** Where the optional NOTIFY part of the DDL starts. */
  static final String NOTIFY_MARKER = "-- sluice:notify";
  /**
   * The default names in the DDL, matched in one pass so that a replacement is never read again:
   * the channel literal, then the table, its dead-row table and its trigger function.
   */
  private static final Pattern DEFAULT_NAMES =
      Pattern.compile("pg_notify\\('sluice_outbox'|'sluice_outbox'::regclass|(?<![A-Za-z0-9_.\"])sluice_outbox"
          + "(_dead|_notify)?(?![A-Za-z0-9_])");

  private final String table;
  private final String deadTable;

  OutboxSql(String table) {
    if (!OutboxSource.isTableName(table)) {
      throw new IllegalArgumentException("not a table name: " + table);
    }
    this.table = quoted(table);
    this.deadTable = quoted(table + "_dead");
  }

  /** {@code schema.name} as {@code "schema"."name"}. */
  static String quoted(String name) {
    StringBuilder out = new StringBuilder();
    for (String part : name.split("\\.")) {
      out.append(out.length() == 0 ? "" : ".").append('"').append(part).append('"');
    }
    return out.toString();
  }

  /**
   * A round's rows, oldest first, those another transaction holds skipped; $1 the batch size; $2
   * and $3 the queues and topics resting after a failure for now, whose rows are passed over (all
   * of a destination's, so that its order holds) rather than read again ahead of everyone else's.
   */
  String selectBatch() {
    return "SELECT id, queue_name, topic_name, body, message_attributes::text, delay_seconds, message_group_id,"
        + " message_deduplication_id FROM " + table + " WHERE NOT (coalesce(queue_name, '') = ANY($2::text[])"
        + " OR coalesce(topic_name, '') = ANY($3::text[])) ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED";
  }

  /** Copies the refused rows to the dead-row table with their errors; $1 ids, $2 codes, $3 messages (arrays). */
  String moveToDead() {
    return "INSERT INTO " + deadTable + " (id, queue_name, topic_name, body, message_attributes, delay_seconds,"
        + " message_group_id, message_deduplication_id, created_at, error_code, error_message, failed_at)"
        + " SELECT o.id, o.queue_name, o.topic_name, o.body, o.message_attributes, o.delay_seconds,"
        + " o.message_group_id, o.message_deduplication_id, o.created_at, r.error_code, r.error_message, now()"
        + " FROM " + table + " o JOIN unnest($1::bigint[], $2::text[], $3::text[]) AS r(id, error_code, error_message)"
        + " ON r.id = o.id"
        // A row replayed with its old id fails again: it replaces its earlier failure instead of
        // failing the round, which would hold up every row behind it.
        + " ON CONFLICT (id) DO UPDATE SET error_code = EXCLUDED.error_code, error_message = EXCLUDED.error_message,"
        + " failed_at = EXCLUDED.failed_at";
  }

  /** Deletes the rows of $1 (sent, or copied to the dead-row table). */
  String delete() {
    return "DELETE FROM " + table + " WHERE id = ANY($1::bigint[])";
  }

  /** Which ids of $1 are still in the outbox (a queue's receipts of the others may be forgotten). */
  String present() {
    return "SELECT id FROM " + table + " WHERE id = ANY($1::bigint[])";
  }

  /**
   * Seconds since the oldest row (the lowest id: its primary key finds it, where min(created_at)
   * would read the whole table) was inserted; no row when the outbox is empty.
   */
  String oldestAge() {
    return "SELECT extract(epoch FROM now() - created_at)::float8 FROM " + table + " ORDER BY id LIMIT 1";
  }

  /**
   * Takes the source's lease on this session, if no other session holds it ($1 {@link #leaseKey}),
   * and answers the lease's fencing token: a transaction id of the database, which only grows.
   */
  static String tryLease() {
    return "SELECT pg_try_advisory_lock($1), txid_current()";
  }

  /** LISTEN on {@code channel}, an identifier the configuration validated. */
  static String listen(String channel) {
    return "LISTEN " + quoted(channel);
  }

  /**
   * The advisory lock key of {@code table}'s lease: the first 8 bytes of SHA-256 of
   * {@code "sluice-outbox:" + table}, the same in every process and every version (String.hashCode is
   * 32 bits; a collision with an application's own advisory lock is what 64 make unlikely).
   */
  static long leaseKey(String table) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(("sluice-outbox:" + table)
          .getBytes(StandardCharsets.UTF_8));
      long key = 0;
      for (int i = 0; i < 8; i++) {
        key = (key << 8) | (h[i] & 0xff);
      }
      return key;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** The shipped DDL (outbox.sql), from the jar. */
  static String shippedDdl() {
    try (InputStream in = OutboxSql.class.getClassLoader().getResourceAsStream(DDL_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(DDL_RESOURCE + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code template} (the shipped DDL) for {@code table} and {@code channel}: the default names
   * replaced by the quoted ones, and without its NOTIFY part when {@code channel} is empty.
   */
  static String ddl(String template, String table, String channel) {
    if (!OutboxSource.isTableName(table) || !(channel.isEmpty() || OutboxSource.isIdentifier(channel))) {
      throw new IllegalArgumentException("not a table and channel name: " + table + ", " + channel);
    }
    String text = template;
    if (channel.isEmpty()) {
      int notify = text.indexOf(NOTIFY_MARKER);
      text = notify < 0 ? text : text.substring(0, notify);
    }
    Matcher m = DEFAULT_NAMES.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String found = m.group();
      String replacement;
      if (found.startsWith("pg_notify")) {
        replacement = "pg_notify('" + channel + "'";
      } else if (found.endsWith("::regclass")) {
        replacement = "'" + quoted(table) + "'::regclass";
      } else {
        replacement = quoted(table + (m.group(1) == null ? "" : m.group(1)));
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }
}
