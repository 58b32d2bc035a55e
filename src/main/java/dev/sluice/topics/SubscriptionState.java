package dev.sluice.topics;

import dev.sluice.api.topics.SubscriptionSummary;
import java.util.Map;
import java.util.TreeMap;

/**
 * One subscription of a topic: its id (the last part of its ARN), where it delivers (protocol and
 * endpoint), the account that made it, its attributes and how it was confirmed. An SQS subscription
 * is confirmed when made (by its owner's signed request); an HTTP/HTTPS one waits for the token its
 * SubscriptionConfirmation carried, and until then receives nothing. Owned by its topic's shard loop.
 */
public final class SubscriptionState {
  /** What ListSubscriptions shows as the ARN of a subscription waiting for confirmation (AWS). */
  public static final String PENDING_ARN = "PendingConfirmation";

  private final String id;
  private final String topicArn;
  private final String protocol;
  private final String endpoint;
  private final String owner;
  private final String principal;
  private final long createdAtMillis;
  private SubscriptionAttributes attributes;
  private Confirmation confirmation;
  /** Set once the subscription is gone: deliveries still scheduled for it stop. */
  private boolean ended;
  /** HTTP deliveries accepted and not yet decided, and the bytes they hold. */
  private int pendingDeliveries;
  /** The earliest time the throttle lets the next delivery leave, in epoch milliseconds. */
  private long nextSendMillis;

  /**
   * How a subscription was confirmed: {@code token} (null for one confirmed when made), whether it
   * still waits for it, whether its confirmation was a signed request, and whether only a signed
   * request may end it (ConfirmSubscription's AuthenticateOnUnsubscribe).
   */
  public record Confirmation(String token, boolean pending, boolean authenticated, boolean authenticateOnUnsubscribe) {
    /** Confirmed by its owner's signed Subscribe, as SQS subscriptions are. */
    public static final Confirmation BY_OWNER = new Confirmation(null, false, true, true);

    /** What PostgreSQL keeps: empty for {@link #BY_OWNER}. */
    public String stored() {
      if (equals(BY_OWNER)) {
        return "";
      }
      return (pending ? "pending" : "confirmed") + " " + (authenticated ? "signed" : "unsigned") + " "
          + (authenticateOnUnsubscribe ? "signed-unsubscribe" : "any-unsubscribe") + " " + token;
    }

    /** {@link #stored} read back. */
    public static Confirmation of(String stored) {
      if (stored == null || stored.isEmpty()) {
        return BY_OWNER;
      }
      String[] p = stored.split(" ", 4);
      return new Confirmation(p[3], p[0].equals("pending"), p[1].equals("signed"), p[2].equals("signed-unsubscribe"));
    }
  }

  SubscriptionState(String id, String topicArn, String protocol, String endpoint, String owner, String principal,
      long createdAtMillis, SubscriptionAttributes attributes, Confirmation confirmation) {
    this.id = id;
    this.topicArn = topicArn;
    this.protocol = protocol;
    this.endpoint = endpoint;
    this.owner = owner;
    this.principal = principal;
    this.createdAtMillis = createdAtMillis;
    this.attributes = attributes;
    this.confirmation = confirmation;
  }

  public String id() {
    return id;
  }

  public String arn() {
    return topicArn + ":" + id;
  }

  public String protocol() {
    return protocol;
  }

  public String endpoint() {
    return endpoint;
  }

  public String owner() {
    return owner;
  }

  public String principal() {
    return principal;
  }

  public long createdAtMillis() {
    return createdAtMillis;
  }

  public SubscriptionAttributes attributes() {
    return attributes;
  }

  void attributes(SubscriptionAttributes changed) {
    this.attributes = changed;
  }

  public Confirmation confirmation() {
    return confirmation;
  }

  public boolean pending() {
    return confirmation.pending();
  }

  /** Confirmed by {@code token}: a signed request's confirmation is authenticated. */
  void confirm(boolean signed, boolean authenticateOnUnsubscribe) {
    confirmation = new Confirmation(confirmation.token(), false, signed, signed && authenticateOnUnsubscribe);
  }

  /** Whether an unsigned request (its UnsubscribeURL) may end this subscription. */
  public boolean unsignedUnsubscribeAllowed() {
    return !confirmation.pending() && !confirmation.authenticateOnUnsubscribe();
  }

  public boolean ended() {
    return ended;
  }

  void end() {
    ended = true;
  }

  public int pendingDeliveries() {
    return pendingDeliveries;
  }

  /** One more HTTP delivery held (positive) or decided (negative). */
  public void pendingDeliveries(int change) {
    pendingDeliveries += change;
  }

  /**
   * The throttle (DeliveryPolicy's maxReceivesPerSecond, 0 for none): when a delivery asked for at
   * {@code nowMillis} may leave, the slot taken.
   */
  public long reserveSend(long nowMillis, int maxPerSecond) {
    if (maxPerSecond <= 0) {
      return nowMillis;
    }
    long at = Math.max(nowMillis, nextSendMillis);
    nextSendMillis = at + Math.max(1, 1000 / maxPerSecond);
    return at;
  }

  public SubscriptionSummary summary() {
    return new SubscriptionSummary(pending() ? PENDING_ARN : arn(), owner, protocol, endpoint, topicArn);
  }

  /**
   * GetSubscriptionAttributes (AWS-recorded sets: a confirmed SQS subscription; an HTTP one adds
   * its effective delivery policy), {@code effective} the policy it follows (null: not HTTP).
   */
  public Map<String, String> view(DeliveryPolicy effective) {
    Map<String, String> out = new TreeMap<>();
    out.put("ConfirmationWasAuthenticated", Boolean.toString(confirmation.authenticated()));
    out.put("Endpoint", endpoint);
    out.put("Owner", owner);
    out.put("PendingConfirmation", Boolean.toString(confirmation.pending()));
    if (effective != null) {
      out.put("EffectiveDeliveryPolicy", effective.view());
    }
    out.put("Protocol", protocol);
    out.put("SubscriptionArn", arn());
    out.put("SubscriptionPrincipal", principal);
    out.put("TopicArn", topicArn);
    attributes.addTo(out);
    return out;
  }
}
