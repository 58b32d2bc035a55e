package dev.sluice.access;

import java.util.Objects;

/**
 * Who makes a request: an identity of an account (its principal ARN, and the identity policy its
 * credential is configured with), or an AWS service acting for a resource, such as SNS delivering
 * to a subscribed queue (IAM User Guide: Principal, AWS service principals). Immutable.
 *
 * @param accountId the 12-digit account the credential belongs to; null for a service
 * @param principalArn the identity AccessDenied names, {@code arn:aws:iam::<account>:root} for an
 *     account's own credential; the service principal for a service
 * @param identity the credential's permissions; {@link IdentityPolicy#FULL_ACCESS} when none are listed
 * @param service the service principal, e.g. {@code sns.amazonaws.com}; null for an account identity
 */
public record Requester(String accountId, String principalArn, IdentityPolicy identity, String service) {
  public Requester {
    if ((accountId == null) == (service == null)) {
      throw new IllegalArgumentException("a requester is either an account identity or a service");
    }
    Objects.requireNonNull(principalArn, "principalArn");
    Objects.requireNonNull(identity, "identity");
  }

  /** An identity of {@code accountId}; a null {@code principalArn} means the account's root. */
  public static Requester of(String accountId, String principalArn, IdentityPolicy identity) {
    return new Requester(accountId, principalArn == null ? Arns.rootOf(accountId) : principalArn, identity, null);
  }

  /**
   * A service principal. It has no identity policy: only a queue policy naming it (or everyone)
   * lets it in (SQS Developer Guide: Troubleshoot access denied errors).
   */
  public static Requester service(String servicePrincipal) {
    return new Requester(null, servicePrincipal, IdentityPolicy.NONE, servicePrincipal);
  }

  public boolean isService() {
    return service != null;
  }

  boolean isAccountRoot() {
    return !isService() && principalArn.equals(Arns.rootOf(accountId));
  }
}
