package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Where topics and subscriptions are kept: each change writes the whole row again (an upsert) or
 * deletes it, in one statement fenced like every write. One instance per shard: its writes run one
 * after another, in the order the shard made them, so a later state of a topic is never overwritten
 * by an earlier one that happened to commit last. Used from its shard's event loop only.
 */
public final class TopicStore {
  static final String UPSERT_TOPIC = "WITH f AS (SELECT %s AS epoch)"
      + " INSERT INTO sluice_topics (id, account_id, region, name, created_at, attributes, tags)"
      + " SELECT $%d, $%d, $%d, $%d, $%d, $%d, $%d FROM f"
      + " ON CONFLICT (id) DO UPDATE SET attributes = EXCLUDED.attributes, tags = EXCLUDED.tags";
  /** By key, so that a delete retried after a failure finds the topic whatever its generation. */
  static final String DELETE_TOPIC = "WITH f AS (SELECT %s AS epoch),"
      + " t AS (DELETE FROM sluice_topics WHERE account_id = $%d AND region = $%d AND name = $%d"
      + " AND EXISTS (SELECT 1 FROM f) RETURNING id)"
      + " DELETE FROM sluice_subscriptions WHERE topic_id IN (SELECT id FROM t)";
  static final String UPSERT_SUBSCRIPTION = "WITH f AS (SELECT %s AS epoch)"
      + " INSERT INTO sluice_subscriptions (topic_id, id, protocol, endpoint, owner, principal, created_at, attributes,"
      + " confirmation) SELECT $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d FROM f"
      + " ON CONFLICT (topic_id, id) DO UPDATE SET attributes = EXCLUDED.attributes,"
      + " confirmation = EXCLUDED.confirmation";
  static final String DELETE_SUBSCRIPTION = "WITH f AS (SELECT %s AS epoch)"
      + " DELETE FROM sluice_subscriptions WHERE topic_id = $%d AND id = $%d AND EXISTS (SELECT 1 FROM f)";
  static final String SELECT_TOPICS = "SELECT id, account_id, region, name, created_at, attributes, tags"
      + " FROM sluice_topics";
  static final String SELECT_SUBSCRIPTIONS = "SELECT topic_id, id, protocol, endpoint, owner, principal, created_at,"
      + " attributes, confirmation FROM sluice_subscriptions ORDER BY created_at, id";

  /** A topic as stored: its settable attributes (and FifoTopic) and its tags as JSON objects. */
  public record TopicRow(long id, String accountId, String region, String name, long createdAt, String attributes,
      String tags) {}

  /**
   * A subscription as stored: its settable attributes as a JSON object, and how it was confirmed
   * (empty: when made; see V9__subscription_confirmation.sql).
   */
  public record SubscriptionRow(long topicId, String id, String protocol, String endpoint, String owner,
      String principal, long createdAt, String attributes, String confirmation) {}

  private final FencedStatements statements;

  public TopicStore(Pool pool, Fence fence) {
    this.statements = new FencedStatements(pool, fence);
  }

  public Future<Void> saveTopic(TopicRow r) {
    return statements.run(UPSERT_TOPIC, 7, statements.parameters().addLong(r.id()).addString(r.accountId())
        .addString(r.region()).addString(r.name()).addLong(r.createdAt()).addString(r.attributes())
        .addString(r.tags()));
  }

  /** Deletes the topic of that account, region and name, and its subscriptions. */
  public Future<Void> deleteTopic(String accountId, String region, String name) {
    return statements.run(DELETE_TOPIC, 3,
        statements.parameters().addString(accountId).addString(region).addString(name));
  }

  public Future<Void> saveSubscription(SubscriptionRow r) {
    return statements.run(UPSERT_SUBSCRIPTION, 9, statements.parameters().addLong(r.topicId()).addString(r.id())
        .addString(r.protocol()).addString(r.endpoint()).addString(r.owner()).addString(r.principal())
        .addLong(r.createdAt()).addString(r.attributes()).addString(r.confirmation()));
  }

  public Future<Void> deleteSubscription(long topicId, String id) {
    return statements.run(DELETE_SUBSCRIPTION, 2, statements.parameters().addLong(topicId).addString(id));
  }

  /** Every stored topic. */
  public static Future<List<TopicRow>> topics(Pool pool) {
    return pool.query(SELECT_TOPICS).execute().map(rows -> {
      List<TopicRow> out = new ArrayList<>();
      for (Row r : rows) {
        out.add(new TopicRow(r.getLong(0), r.getString(1), r.getString(2), r.getString(3), r.getLong(4),
            r.getString(5), r.getString(6)));
      }
      return out;
    });
  }

  /** Every stored subscription, in the order they were made. */
  public static Future<List<SubscriptionRow>> subscriptions(Pool pool) {
    return pool.query(SELECT_SUBSCRIPTIONS).execute().map(rows -> {
      List<SubscriptionRow> out = new ArrayList<>();
      for (Row r : rows) {
        out.add(new SubscriptionRow(r.getLong(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
            r.getString(5), r.getLong(6), r.getString(7), r.getString(8)));
      }
      return out;
    });
  }
}
