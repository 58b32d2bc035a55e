package dev.sluice.access;

/**
 * Decides one {@link AccessRequest} as AWS evaluates policies (IAM User Guide: Policy evaluation
 * logic; SQS Developer Guide: Troubleshoot access denied errors):
 * <ol>
 *   <li>a Deny in any statement that applies, in the requester's identity policy or in the queue's
 *       policy, denies;
 *   <li>otherwise, on its own account's queue, an Allow from either policy is enough;
 *   <li>on another account's queue, both are needed: the queue policy must name the requester (or
 *       its account, or everyone) and its identity policy must allow it too;
 *   <li>a service principal has no identity policy: only the queue policy can let it in;
 *   <li>no queue policy lets another account, or a service, manage the queue (set its attributes
 *       or permissions, tag, delete, list or move it): SQS keeps those with the owner.
 * </ol>
 * The request is authorized as its IAM action, so a batch is decided as its single form. Statement
 * order never matters. Stateless and pure.
 */
public final class AccessEvaluator {
  private AccessEvaluator() {}

  public static Decision decide(AccessRequest r) {
    String action = IamActions.authorizedAs(r.apiAction());
    String arn = r.queueArn();
    String owner = Arns.accountOf(arn);
    Requester who = r.requester();
    boolean identityAllows = false;
    boolean identityDenies = false;
    for (PolicyStatement s : who.identity().statements()) {
      if (s.covers(action, arn, r.context())) {
        identityAllows |= s.effect() == Effect.ALLOW;
        identityDenies |= s.effect() == Effect.DENY;
      }
    }
    boolean resourceAllows = false;
    boolean resourceDenies = false;
    if (r.queuePolicy() != null) {
      for (PolicyStatement s : r.queuePolicy().statements()) {
        if (s.covers(action, arn, r.context()) && s.names(who, owner)) {
          resourceAllows |= s.effect() == Effect.ALLOW;
          resourceDenies |= s.effect() == Effect.DENY;
        }
      }
    }
    if (identityDenies) {
      return Decision.deny(r, action, DenialReason.EXPLICIT_DENY_IN_IDENTITY_POLICY);
    }
    if (resourceDenies) {
      return Decision.deny(r, action, DenialReason.EXPLICIT_DENY_IN_RESOURCE_POLICY);
    }
    if (who.isService()) {
      return resourceAllows && IamActions.grantableAcrossAccounts(action)
          ? Decision.ALLOW : Decision.deny(r, action, DenialReason.NO_RESOURCE_POLICY_ALLOWS);
    }
    if (owner.equals(who.accountId())) {
      // AWS names the identity policy when neither grants an own-account request
      // (aws/serverless-application-model#3633).
      return identityAllows || resourceAllows
          ? Decision.ALLOW : Decision.deny(r, action, DenialReason.NO_IDENTITY_POLICY_ALLOWS);
    }
    // Across accounts the queue owner's grant is checked first: when neither side allows, the
    // message names the queue policy, as in the cross-account denial quoted in microsoft/aspire#3333.
    // Managing a queue stays with its owner, whatever its policy says (IamActions.grantableAcrossAccounts).
    if (!resourceAllows || !IamActions.grantableAcrossAccounts(action)) {
      return Decision.deny(r, action, DenialReason.NO_RESOURCE_POLICY_ALLOWS);
    }
    return identityAllows ? Decision.ALLOW : Decision.deny(r, action, DenialReason.NO_IDENTITY_POLICY_ALLOWS);
  }
}
