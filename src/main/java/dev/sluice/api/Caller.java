package dev.sluice.api;

/**
 * Who sent a request and how to answer them, independent of the wire protocol. Who a request acts
 * as (account, region, access key) is settled once, on the caller's event loop, before the request
 * reaches the engine; the other values may be derived lazily from the request, so read them only
 * on the caller's own event loop (the engine does so before handing a call to a shard).
 */
public interface Caller {
  /** The id echoed in {@code x-amzn-RequestId}. */
  String requestId();

  /** Scheme, host and port that queue URLs handed to this caller start with. */
  String baseUrl();

  /** The identity recorded as a message's SenderId (the signing access key id, else the account id). */
  String senderId();

  /** The {@code X-Amzn-Trace-Id} HTTP header, captured as AWSTraceHeader on sends, or null. */
  String traceHeader();

  /**
   * The 12-digit account the request acts as: its credential's account, or the configured default
   * account (sqs.accountId) when authentication is off. Queues it creates belong to this account,
   * and a queue named without an account (a bare name, ListQueues) is one of this account's.
   */
  String accountId();

  /**
   * The region the request acts in: the region of its SigV4 credential scope, or the configured
   * default region (sqs.region) when it is not signed. Every queue it names is one of this region's.
   */
  String region();

  /** The access key id that signed the request (checked when authentication is on), or null when unsigned. */
  String accessKeyId();

  /**
   * Whether the request is an unsigned SNS link (a SubscribeURL or UnsubscribeURL followed) let in
   * while authentication is on: it acts for the account its ARN names, and may do only the one
   * action its link is for, as that action allows.
   */
  default boolean unsignedLink() {
    return false;
  }

  /**
   * Whether the request carries the management token: the operator, who manages the triggers of
   * every account (design/triggers.md §2.11).
   */
  default boolean operator() {
    return false;
  }

  /** The account and region the request acts in. */
  default AccountRegion accountRegion() {
    return new AccountRegion(accountId(), region());
  }
}
