package dev.sluice.api;

/**
 * What identifies a queue: the account that owns it, its region and its name. Queue URLs carry
 * the account and the name (the region comes with the request that uses one), ARNs carry all three.
 */
public record QueueKey(String accountId, String region, String name) implements ShardKey {
  /** The account and region the queue lives in. */
  public AccountRegion accountRegion() {
    return new AccountRegion(accountId, region);
  }

  /** Whether this queue lives in {@code place}. */
  public boolean isIn(AccountRegion place) {
    return accountId.equals(place.accountId()) && region.equals(place.region());
  }
}
