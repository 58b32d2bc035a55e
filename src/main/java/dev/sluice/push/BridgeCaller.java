package dev.sluice.push;

import dev.sluice.api.Caller;

/**
 * A push subscription as the engine sees it: the account it acts as and the region it acts in, and
 * the access key its bridge URL was presigned with (null for a management-token connection, which
 * acts as the default account): the engine's owner check gives it exactly what that credential
 * may do. Its queue URL may name another account's queue, as an HTTP caller's may. It never sends,
 * so its sender id is never recorded.
 */
record BridgeCaller(String accountId, String region, String accessKeyId) implements Caller {
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
}
