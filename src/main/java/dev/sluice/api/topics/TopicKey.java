package dev.sluice.api.topics;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.ShardKey;

/**
 * What identifies a topic: the account that owns it, its region and its name; its ARN is
 * {@code arn:aws:sns:<region>:<account>:<name>}. A topic may share its name with a queue.
 */
public record TopicKey(String accountId, String region, String name) implements ShardKey {
  public AccountRegion accountRegion() {
    return new AccountRegion(accountId, region);
  }

  public String arn() {
    return "arn:aws:sns:" + region + ":" + accountId + ":" + name;
  }
}
