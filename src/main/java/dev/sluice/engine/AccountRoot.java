package dev.sluice.engine;

import dev.sluice.api.Caller;

/**
 * The server acting for itself as an account's root in one of its regions, with no access key: a
 * trigger's pollers and an outbox's relay. Every queue's owner check then decides their calls as it
 * would the owner's own. {@code requestId} names the kind of work in errors and logs.
 */
public record AccountRoot(String accountId, String region, String requestId) implements Caller {
  /** Queue URLs are built for these calls, never handed out: the base only has to be well formed. */
  public static final String BASE_URL = "http://localhost";

  /** The URL of the queue {@code queueName} of this account. */
  public String queueUrl(String queueName) {
    return BASE_URL + "/" + accountId + "/" + queueName;
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
