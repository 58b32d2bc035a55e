package dev.sluice.outbox;

import dev.sluice.api.Caller;

/**
 * Who a relay sends as: its source's account root, in the source's region, with no access key, so
 * that the destination queue's owner check decides every send as it would the owner's own.
 */
record OutboxCaller(String accountId, String region) implements Caller {
  /** Queue URLs are built here, never handed out: the base only has to be well formed. */
  static final String BASE_URL = "http://localhost";

  /** The URL of the queue {@code queueName} of this caller's account. */
  String queueUrl(String queueName) {
    return BASE_URL + "/" + accountId + "/" + queueName;
  }

  @Override
  public String requestId() {
    return "outbox";
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
