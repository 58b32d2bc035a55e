package dev.sluice.api;

/**
 * An account in one region: where a queue lives. As in SQS, queues of different accounts, or of
 * one account in different regions, are different queues even when their names are the same; a
 * listing answers for one of these places (AWS: Amazon SQS queue and message identifiers).
 */
public record AccountRegion(String accountId, String region) {
  /** The queue of this account and region with that name. */
  public QueueKey queue(String name) {
    return new QueueKey(accountId, region, name);
  }
}
