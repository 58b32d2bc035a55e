package dev.sluice;

import dev.sluice.api.Caller;

/**
 * The server itself, creating the queues and topics of the configuration in their account and
 * region. URLs are not handed out here; the base only has to be well formed.
 */
record StartupCaller(String accountId, String region) implements Caller {
  static StartupCaller of(String accountId, String region) {
    return new StartupCaller(accountId, region);
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
