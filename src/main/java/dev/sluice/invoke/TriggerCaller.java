package dev.sluice.invoke;

import dev.sluice.api.Caller;

/**
 * Who a trigger's pollers act as: its owner account's root, in its queue's region, with no access
 * key, so that the queue's owner check decides every receive and delete as it would the owner's own.
 */
record TriggerCaller(String accountId, String region) implements Caller {
  /** Queue URLs are built here, never handed out: the base only has to be well formed. */
  static final String BASE_URL = "http://localhost";

  @Override
  public String requestId() {
    return "trigger";
  }

  @Override
  public String baseUrl() {
    return BASE_URL;
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
