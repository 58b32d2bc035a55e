package dev.sluice.push;

import dev.sluice.api.Caller;

/**
 * A push subscription as the engine sees it: the bridges take the management token, not a SigV4
 * credential, so a subscriber acts as the default account (sqs.accountId), in the region its
 * subscribe request names or the default one (sqs.region). Its queue URL may name another
 * account's queue, as an HTTP caller's may. It never sends, so its sender id is never recorded.
 */
record BridgeCaller(String accountId, String region) implements Caller {
  @Override
  public String requestId() {
    return "push";
  }

  @Override
  public String baseUrl() {
    return "http://localhost";
  }

  @Override
  public String senderId() {
    return accountId;
  }

  @Override
  public String traceHeader() {
    return null;
  }

  @Override
  public String accessKeyId() {
    return null;
  }
}
