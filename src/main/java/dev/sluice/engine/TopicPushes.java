package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.api.topics.TopicNotification;
import dev.sluice.topics.SubscriptionAttributes;
import dev.sluice.topics.TopicListener;
import io.vertx.core.Future;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Push subscribers of topics (the event-bus bridge's {@code sluice.subscribe} with a topic): an
 * ephemeral listener on the topic's shard, after the owner check as for Subscribe, with an optional
 * filter policy checked as Subscribe checks one. The push service keeps everything else (credits,
 * the connection); a listener lives until it is removed or its topic is deleted. Stateless.
 */
public final class TopicPushes {
  private final TopicShards shards;

  TopicPushes(TopicShards shards) {
    this.shards = shards;
  }

  /**
   * Adds listener {@code id} to the topic {@code topicArn} names (or {@code topicName}, of the
   * caller's account and region); answers the topic's ARN, which {@link #remove} takes.
   */
  public Future<String> add(Caller c, String topicArn, String topicName, String filterPolicy, String filterPolicyScope,
      String id, Consumer<TopicNotification> sink, Runnable ended) {
    TopicKey key = topicArn != null ? TopicActions.topicArn(c, topicArn)
        : new TopicKey(c.accountId(), c.region(), topicName);
    shards.check(c, "Subscribe", key);
    Map<String, String> filter = new LinkedHashMap<>();
    if (filterPolicyScope != null) {
      filter.put("FilterPolicyScope", filterPolicyScope);
    }
    if (filterPolicy != null) {
      filter.put("FilterPolicy", filterPolicy);
    }
    SubscriptionAttributes checked = SubscriptionAttributes.create(filter, false, "push");
    return shards.onShard(key, s -> {
      s.topics().get(key).listen(new TopicListener(id, checked.filter(), sink, ended));
      return key.arn();
    });
  }

  /** Removes listener {@code id} of the topic {@code topicArn}; nothing when either is gone. */
  public Future<Void> remove(Caller c, String topicArn, String id) {
    TopicKey key;
    try {
      key = TopicActions.topicArn(c, topicArn);
    } catch (SnsException gone) {
      return Future.succeededFuture();
    }
    return shards.onShard(key, s -> {
      var t = s.topics().find(key);
      if (t != null) {
        t.unlisten(id);
      }
      return null;
    });
  }
}
