package dev.sluice.config;

import dev.sluice.access.IdentityPolicy;

/**
 * One configured SigV4 credential: its access key id and secret, the account a request signed with
 * it acts as, and what it may do: its configured IAM-style statements, or
 * {@link IdentityPolicy#FULL_ACCESS} when none are listed (as an account's root; what other
 * accounts' queues let it do is still up to their policies). {@link #toString} leaves the secret out.
 */
public record Credential(String accessKeyId, String secretAccessKey, String accountId, IdentityPolicy permissions) {
  /** Whether no permissions are listed: it may do anything to its own account's queues. */
  public boolean fullAccess() {
    return permissions == IdentityPolicy.FULL_ACCESS;
  }

  @Override
  public String toString() {
    return "Credential[" + accessKeyId + ", account " + accountId + ", "
        + (permissions == IdentityPolicy.FULL_ACCESS ? "full access" : "listed permissions") + "]";
  }
}
