package dev.sluice.engine;

import dev.sluice.access.IdentityPolicy;
import dev.sluice.access.Requester;
import dev.sluice.api.Caller;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Who a caller is, for the one owner check of every SQS action ({@link Permit#check}): the account
 * it acts as, with the permissions its credential is configured with. A request signed with a key
 * that has none listed, an unsigned one, or any request while authentication is off, acts with
 * full access to its own account's queues (as an account's root does); other accounts' queues it
 * reaches only where their policies let it. Used from every event loop: its caches are concurrent,
 * and bounded by the accounts and keys requests can act as (the default account and the
 * configured credentials), so that no request builds a principal ARN of its own.
 */
final class QueueAccess {
  private final Map<String, IdentityPolicy> permissionsByAccessKey;
  private final ConcurrentMap<String, Requester> rootsByAccount = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Requester> usersByAccessKey = new ConcurrentHashMap<>();

  /** @param permissionsByAccessKey the permissions of each configured access key id that lists some */
  QueueAccess(Map<String, IdentityPolicy> permissionsByAccessKey) {
    this.permissionsByAccessKey = Map.copyOf(permissionsByAccessKey);
  }

  /**
   * Asked on the caller's event loop: what {@code c} may do as {@code action} (an API action name).
   * A credential with permissions listed is an IAM user of its account, named after its key
   * ({@code arn:aws:iam::<account>:user/<access key id>}): a queue policy that names its account
   * delegates to those permissions, as AWS does, and a policy may name the user itself. Any other
   * caller is its account's root.
   */
  Permit permit(Caller c, String action) {
    return new Permit(c, action, requester(c));
  }

  /** Who {@code c} acts as: its account's root, or the IAM user of its credential's listed permissions. */
  Requester requester(Caller c) {
    String key = c.accessKeyId();
    IdentityPolicy permissions = key == null ? null : permissionsByAccessKey.get(key);
    // A listed key always acts as its credential's one account, so it can key the cache alone.
    Requester requester = permissions == null
        ? rootsByAccount.computeIfAbsent(c.accountId(),
            account -> Requester.of(account, null, IdentityPolicy.FULL_ACCESS))
        : usersByAccessKey.computeIfAbsent(key,
            k -> Requester.of(c.accountId(), "arn:aws:iam::" + c.accountId() + ":user/" + k, permissions));
    return requester;
  }
}
