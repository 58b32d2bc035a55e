package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.Caller;
import dev.sluice.api.topics.ConfirmSubscription;
import dev.sluice.api.topics.GetSubscriptionAttributes;
import dev.sluice.api.topics.ListSubscriptions;
import dev.sluice.api.topics.ListSubscriptionsByTopic;
import dev.sluice.api.topics.SetSubscriptionAttributes;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.Subscribe;
import dev.sluice.api.topics.SubscriptionSummary;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.api.topics.Unsubscribe;
import dev.sluice.topics.SubscriptionState;
import dev.sluice.topics.TopicArns;
import dev.sluice.topics.TopicArns.SubscriptionRef;
import dev.sluice.topics.TopicState;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * Subscriptions (the SNS API reference): each runs on its topic's shard (a subscription's ARN is
 * its topic's ARN and an id), after the owner check ({@link TopicShards}); ListSubscriptions asks
 * every shard. Subscriptions of SQS queues of the topic's own account are confirmed at once, as
 * AWS confirms them, so none waits for a token yet.
 */
public final class SubscriptionActions {
  private final TopicShards shards;
  private final TopicListing listing;

  SubscriptionActions(TopicShards shards) {
    this.shards = shards;
    this.listing = new TopicListing(shards.dispatcher());
  }

  public Future<Subscribe.Response> subscribe(Caller c, Subscribe.Request r) {
    TopicKey key = TopicActions.topicArn(c, r.topicArn());
    shards.check(c, "Subscribe", key);
    String principal = TopicAccess.principalOf(c);
    return shards.change(key, s -> {
      TopicState t = s.topics().get(key);
      SubscriptionState sub = t.subscribe(r.protocol(), r.endpoint(), r.attributes(), c.accountId(), principal,
          s.now());
      return s.topicWrites().saveSubscription(t, sub).map(new Subscribe.Response(sub.arn()));
    });
  }

  /** Unsubscribing a subscription (or of a topic) that is gone succeeds, as at AWS (recorded). */
  public Future<Void> unsubscribe(Caller c, Unsubscribe.Request r) {
    SubscriptionRef ref = subscriptionArn(c, r.subscriptionArn());
    shards.check(c, "Unsubscribe", ref.topic().accountId(), ref.arn());
    return shards.change(ref.topic(), s -> {
      TopicState t = s.topics().find(ref.topic());
      if (t == null) {
        return Future.succeededFuture();
      }
      t.unsubscribe(ref.id());
      return s.topicWrites().deleteSubscription(t, ref.id());
    });
  }

  /**
   * No subscription of Sluice's waits for a token yet: every token is refused, a malformed one as
   * "Invalid token", a well-formed one as "Invalid parameter: Token" (AWS-recorded).
   */
  public Future<ConfirmSubscription.Response> confirmSubscription(Caller c, ConfirmSubscription.Request r) {
    TopicKey key = TopicActions.topicArn(c, r.topicArn());
    shards.check(c, "ConfirmSubscription", key);
    if (r.token() == null) {
      throw SnsException.missing("token");
    }
    boolean wellFormed = r.token().length() >= 32 && r.token().chars().allMatch(ch -> Character.digit(ch, 16) >= 0);
    throw wellFormed ? SnsException.invalidParameter("Token")
        : new SnsException(SnsErrorCode.INVALID_PARAMETER, "Invalid token");
  }

  public Future<ListSubscriptions.Response> listSubscriptions(Caller c, ListSubscriptions.Request r) {
    AccountRegion place = c.accountRegion();
    shards.check(c, "ListSubscriptions", place.accountId(),
        "arn:aws:sns:" + place.region() + ":" + place.accountId() + ":*");
    return listing.gather(s -> {
      List<SubscriptionSummary> here = new ArrayList<>();
      for (TopicState t : s.topics().of(place)) {
        here.addAll(t.summaries());
      }
      return here;
    }).map(all -> {
      ArnPages.Page<SubscriptionSummary> page = ArnPages.page(all, SubscriptionSummary::subscriptionArn, r.nextToken());
      return new ListSubscriptions.Response(page.items(), page.nextToken());
    });
  }

  public Future<ListSubscriptions.Response> listSubscriptionsByTopic(Caller c, ListSubscriptionsByTopic.Request r) {
    TopicKey key = TopicActions.topicArn(c, r.topicArn());
    shards.check(c, "ListSubscriptionsByTopic", key);
    String token = r.nextToken();
    return shards.onShard(key, s -> {
      ArnPages.Page<SubscriptionSummary> page =
          ArnPages.page(s.topics().get(key).summaries(), SubscriptionSummary::subscriptionArn, token);
      return new ListSubscriptions.Response(page.items(), page.nextToken());
    });
  }

  public Future<GetSubscriptionAttributes.Response> getSubscriptionAttributes(Caller c,
      GetSubscriptionAttributes.Request r) {
    SubscriptionRef ref = subscriptionArn(c, r.subscriptionArn());
    shards.check(c, "GetSubscriptionAttributes", ref.topic().accountId(), ref.arn());
    return shards.onShard(ref.topic(), s -> new GetSubscriptionAttributes.Response(subscription(s, ref).view()));
  }

  public Future<Void> setSubscriptionAttributes(Caller c, SetSubscriptionAttributes.Request r) {
    SubscriptionRef ref = subscriptionArn(c, r.subscriptionArn());
    shards.check(c, "SetSubscriptionAttributes", ref.topic().accountId(), ref.arn());
    return shards.change(ref.topic(), s -> {
      SubscriptionState sub = subscription(s, ref);
      TopicState t = s.topics().get(ref.topic());
      t.setSubscriptionAttribute(sub, r.attributeName(), r.attributeValue());
      return s.topicWrites().saveSubscription(t, sub);
    });
  }

  static SubscriptionRef subscriptionArn(Caller c, String arn) {
    return TopicArns.subscriptionOf(arn, "SubscriptionArn", c.accountRegion());
  }

  private static SubscriptionState subscription(Shard s, SubscriptionRef ref) {
    TopicState t = s.topics().find(ref.topic());
    SubscriptionState sub = t == null ? null : t.subscription(ref.id());
    if (sub == null) {
      throw new SnsException(SnsErrorCode.NOT_FOUND, "Subscription does not exist");
    }
    return sub;
  }
}
