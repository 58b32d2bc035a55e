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
import dev.sluice.topics.Envelope;
import dev.sluice.topics.SubscriptionState;
import dev.sluice.topics.TopicArns;
import dev.sluice.topics.TopicArns.SubscriptionRef;
import dev.sluice.topics.TopicState;
import io.vertx.core.Future;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Subscriptions (the SNS API reference): each runs on its topic's shard (a subscription's ARN is
 * its topic's ARN and an id), after the owner check ({@link TopicShards}); ListSubscriptions asks
 * every shard. Subscriptions of SQS queues of the topic's own account are confirmed at once, as
 * AWS confirms them. An HTTP/HTTPS subscription is sent a signed SubscriptionConfirmation and waits
 * for its token: ConfirmSubscription with it, signed or not (its SubscribeURL is an unsigned link,
 * the token its authority), confirms it. An unsigned Unsubscribe (an UnsubscribeURL) ends only a
 * subscription confirmed without AuthenticateOnUnsubscribe, as at AWS; Sluice's own SQS
 * subscriptions, confirmed by their owner's signed Subscribe, need a signed Unsubscribe.
 */
public final class SubscriptionActions {
  /** Subscribe's answer for a subscription that waits for confirmation (AWS-recorded). */
  static final String PENDING = "pending confirmation";
  private static final SecureRandom TOKENS = new SecureRandom();

  private final TopicShards shards;
  private final TopicListing listing;
  private final TopicSigner signer;
  private final HttpDeliveries http;

  SubscriptionActions(TopicShards shards, TopicSigner signer, HttpDeliveries http) {
    this.shards = shards;
    this.listing = new TopicListing(shards.dispatcher());
    this.signer = signer;
    this.http = http;
  }

  public Future<Subscribe.Response> subscribe(Caller c, Subscribe.Request r) {
    TopicKey key = TopicActions.topicArn(c, r.topicArn());
    shards.check(c, "Subscribe", key);
    String principal = TopicAccess.principalOf(c);
    String baseUrl = c.baseUrl();
    boolean returnArn = Boolean.TRUE.equals(r.returnSubscriptionArn());
    return shards.change(key, s -> {
      TopicState t = s.topics().get(key);
      SubscriptionState sub = t.subscribe(r.protocol(), r.endpoint(), r.attributes(), c.accountId(), principal,
          s.now(), SubscriptionActions::newToken);
      return s.topicWrites().saveSubscription(t, sub).map(saved -> {
        if (sub.pending()) {
          // Sent again on each Subscribe while it waits, as AWS sends it again.
          sendConfirmation(t, sub, baseUrl, s.now());
          return new Subscribe.Response(returnArn ? sub.arn() : PENDING);
        }
        return new Subscribe.Response(sub.arn());
      });
    });
  }

  /** Signs the SubscriptionConfirmation of {@code sub} and posts it; on the topic's shard loop. */
  private void sendConfirmation(TopicState t, SubscriptionState sub, String baseUrl, long now) {
    String messageId = UUID.randomUUID().toString();
    String token = sub.confirmation().token();
    String subscribeUrl = Envelope.subscribeUrl(baseUrl, t.arn(), token);
    String version = t.attributes().signatureVersion();
    signer.sign(Map.of("", Envelope.confirmationToSign(messageId, token, t.arn(), subscribeUrl, now)), version)
        .onSuccess(signed -> http.confirm(t, sub, messageId, Envelope.confirmation(messageId, token, t.arn(),
            subscribeUrl, now, new Envelope.Signed(version, signed.signatures().get(""),
                baseUrl + signed.certificatePath()))));
  }

  private static String newToken() {
    byte[] bytes = new byte[64];
    TOKENS.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /**
   * Unsubscribing a subscription (or of a topic) that is gone succeeds, as at AWS (recorded); an
   * unsigned one only ends a subscription that allows it.
   */
  public Future<Void> unsubscribe(Caller c, Unsubscribe.Request r) {
    SubscriptionRef ref = subscriptionArn(c, r.subscriptionArn());
    boolean link = c.unsignedLink();
    if (link) {
      shards.checkLink(c, "Unsubscribe");
    } else {
      shards.check(c, "Unsubscribe", ref.topic().accountId(), ref.arn());
    }
    return shards.change(ref.topic(), s -> {
      TopicState t = s.topics().find(ref.topic());
      SubscriptionState sub = t == null ? null : t.subscription(ref.id());
      if (sub == null) {
        return Future.succeededFuture();
      }
      if (link && !sub.unsignedUnsubscribeAllowed()) {
        throw new SnsException(SnsErrorCode.AUTHORIZATION_ERROR, "This subscription can only be unsubscribed by a"
            + " signed request of its topic's or its own owner (AuthenticateOnUnsubscribe)");
      }
      t.unsubscribe(ref.id());
      return s.topicWrites().deleteSubscription(t, ref.id());
    });
  }

  /**
   * Confirms the subscription that was sent {@code token}: the token is the authority, so an
   * unsigned request (the SubscribeURL) may confirm. An unknown token is refused, a malformed one as
   * "Invalid token", a well-formed one as "Invalid parameter: Token" (AWS-recorded); a repeated
   * confirmation answers the same ARN.
   */
  public Future<ConfirmSubscription.Response> confirmSubscription(Caller c, ConfirmSubscription.Request r) {
    TopicKey key = TopicActions.topicArn(c, r.topicArn());
    boolean link = c.unsignedLink();
    if (link) {
      shards.checkLink(c, "ConfirmSubscription");
    } else {
      shards.check(c, "ConfirmSubscription", key);
    }
    if (r.token() == null) {
      throw SnsException.missing("token");
    }
    boolean wellFormed = r.token().length() >= 32 && r.token().chars().allMatch(ch -> Character.digit(ch, 16) >= 0);
    if (!wellFormed) {
      throw new SnsException(SnsErrorCode.INVALID_PARAMETER, "Invalid token");
    }
    boolean signed = !link && c.accessKeyId() != null;
    boolean authenticateOnUnsubscribe = "true".equalsIgnoreCase(r.authenticateOnUnsubscribe());
    return shards.change(key, s -> {
      TopicState t = s.topics().find(key);
      SubscriptionState sub = t == null ? null : t.confirm(r.token(), signed, authenticateOnUnsubscribe);
      if (sub == null) {
        throw SnsException.invalidParameter("Token");
      }
      return s.topicWrites().saveSubscription(t, sub).map(new ConfirmSubscription.Response(sub.arn()));
    });
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
    return shards.onShard(ref.topic(), s -> {
      SubscriptionState sub = subscription(s, ref);
      return new GetSubscriptionAttributes.Response(sub.view(s.topics().get(ref.topic()).deliveryPolicyOf(sub)));
    });
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
