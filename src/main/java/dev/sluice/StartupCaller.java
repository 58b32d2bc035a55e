package dev.sluice;

import dev.sluice.api.Caller;

/**
 * The server itself, creating the queues, topics and triggers of the configuration in their account and
 * region. URLs are not handed out here; the base only has to be well formed.
 */
record StartupCaller(String accountId, String region, boolean operator) implements Caller {
  static StartupCaller of(String accountId, String region) {
    return new StartupCaller(accountId, region, false);
  }

  /** The server acting as its operator: it manages the triggers of every account. */
  static StartupCaller operator(String accountId, String region) {
    return new StartupCaller(accountId, region, true);
  }

  @Override
  public String requestId() {
    return "startup";
  }

  @Override
  public String baseUrl() {
    return "http://localhost";
  }

  @Override
  public String senderId() {
    return "sluice";
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
