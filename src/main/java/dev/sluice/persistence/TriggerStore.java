package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Where triggers are kept (V10__triggers.sql): each change writes the whole row again (an upsert)
 * or deletes it, in one statement fenced like every write. One instance per shard: its writes run
 * one after another, in the order the shard made them, so that a later state of a trigger is never
 * overwritten by an earlier one that happened to commit last. Used from its shard's event loop only.
 */
public final class TriggerStore {
  static final String UPSERT = "WITH f AS (SELECT %s AS epoch)"
      + " INSERT INTO sluice_triggers (id, owner_account, queue_account, region, queue_name, settings, enabled,"
      + " state_reason, origin, modified_at) SELECT $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d FROM f"
      + " ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings, enabled = EXCLUDED.enabled,"
      + " state_reason = EXCLUDED.state_reason, origin = EXCLUDED.origin, modified_at = EXCLUDED.modified_at";
  static final String DELETE = "WITH f AS (SELECT %s AS epoch)"
      + " DELETE FROM sluice_triggers WHERE id = $%d AND EXISTS (SELECT 1 FROM f)";
  static final String SELECT = "SELECT id, owner_account, queue_account, region, queue_name, settings, enabled,"
      + " state_reason, origin, modified_at FROM sluice_triggers";

  /** A trigger as stored: everything but its queue and state as one JSON object ({@code settings}). */
  public record TriggerRow(UUID id, String owner, String queueAccount, String region, String queueName,
      String settings, boolean enabled, String stateReason, String origin, long modifiedAt) {}

  private final FencedStatements statements;

  public TriggerStore(Pool pool, Fence fence) {
    this.statements = new FencedStatements(pool, fence);
  }

  public Future<Void> save(TriggerRow r) {
    return statements.run(UPSERT, 10, statements.parameters().addUUID(r.id()).addString(r.owner())
        .addString(r.queueAccount()).addString(r.region()).addString(r.queueName()).addString(r.settings())
        .addBoolean(r.enabled()).addString(r.stateReason()).addString(r.origin()).addLong(r.modifiedAt()));
  }

  public Future<Void> delete(UUID id) {
    return statements.run(DELETE, 1, statements.parameters().addUUID(id));
  }

  /** Every stored trigger. */
  public static Future<List<TriggerRow>> all(Pool pool) {
    return pool.query(SELECT).execute().map(rows -> {
      List<TriggerRow> out = new ArrayList<>();
      for (Row r : rows) {
        out.add(new TriggerRow(r.getUUID(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
            r.getString(5), r.getBoolean(6), r.getString(7), r.getString(8), r.getLong(9)));
      }
      return out;
    });
  }
}
