package dev.sluice.engine;

import dev.sluice.access.IdentityPolicy;
import dev.sluice.access.Requester;
import dev.sluice.api.Caller;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;

/**
 * The owner check of every SNS action, decided here and nowhere else: a topic is its account's.
 * Its root (a caller with no listed permissions, or any caller while authentication is off) may
 * do everything to its own account's topics. A credential with listed permissions is an IAM user
 * whose policy can name SQS actions only, so it is allowed no SNS action, as IAM allows nothing
 * no policy grants. Topic policies, which may open a topic to other accounts, are not evaluated
 * yet: another account's topic is refused whatever its Policy says. An unsigned link (a
 * SubscribeURL or UnsubscribeURL followed while authentication is on) passes no owner check: it may
 * only be the ConfirmSubscription or Unsubscribe it is for, which then decides by the token or the
 * subscription. Stateless.
 */
final class TopicAccess {
  private final QueueAccess access;

  TopicAccess(QueueAccess access) {
    this.access = access;
  }

  /**
   * Throws AuthorizationError unless {@code c} may do {@code action} (an SNS API action) to the
   * resource {@code arn} of account {@code owner}.
   */
  void check(Caller c, String action, String owner, String arn) {
    if (c.unsignedLink()) {
      throw new SnsException(SnsErrorCode.AUTHORIZATION_ERROR, "An unsigned request may only confirm a subscription"
          + " or unsubscribe from one (SNS:" + action + " on resource: " + arn + ")");
    }
    Requester r = access.requester(c);
    if (r.identity() != IdentityPolicy.FULL_ACCESS) {
      throw denied(r, action, arn, "no identity-based policy allows the SNS:" + action + " action");
    }
    if (!owner.equals(r.accountId())) {
      throw denied(r, action, arn, "no resource-based policy allows the SNS:" + action + " action");
    }
  }

  /** Throws unless {@code c}, an unsigned link, is for {@code action}, one of the two a link may be. */
  void checkLink(Caller c, String action) {
    if (!c.unsignedLink() || !(action.equals("ConfirmSubscription") || action.equals("Unsubscribe"))) {
      throw new SnsException(SnsErrorCode.AUTHORIZATION_ERROR, "An unsigned request may only confirm a subscription"
          + " or unsubscribe from one");
    }
  }

  /**
   * The principal a subscription shows as made by (SubscriptionPrincipal): the caller's account's
   * root, the only principal allowed SNS actions so far.
   */
  static String principalOf(Caller c) {
    return "arn:aws:iam::" + c.accountId() + ":root";
  }

  private static SnsException denied(Requester r, String action, String arn, String because) {
    String user = r.principalArn() != null ? r.principalArn() : "arn:aws:iam::" + r.accountId() + ":root";
    return new SnsException(SnsErrorCode.AUTHORIZATION_ERROR,
        "User: " + user + " is not authorized to perform: SNS:" + action + " on resource: " + arn + " because "
            + because);
  }
}
