package dev.sluice.engine;

import dev.sluice.api.SqsException;

/**
 * Queue URLs: {@code <base>/<account>/<name>} out, and back to a queue name in. A request's queue
 * is named by the last two path segments of its QueueUrl; host, port and scheme are ignored
 * (clients mix localhost and 127.0.0.1), an account other than ours names no queue of ours, and a
 * bare queue name is accepted as AWS does (the SQS queue and message identifiers guide).
 */
public final class QueueUrls {
  private final String accountId;

  public QueueUrls(String accountId) {
    this.accountId = accountId;
  }

  public String urlOf(String baseUrl, String queueName) {
    return baseUrl + "/" + accountId + "/" + queueName;
  }

  /** The queue name a QueueUrl names; MissingParameter when absent. */
  public String nameOf(String queueUrl) {
    if (queueUrl == null || queueUrl.isEmpty()) {
      throw SqsException.missingParameter("QueueUrl");
    }
    String path = queueUrl;
    int query = path.indexOf('?');
    if (query >= 0) {
      path = path.substring(0, query);
    }
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    int slash = path.lastIndexOf('/');
    String name = slash >= 0 ? path.substring(slash + 1) : path;
    if (name.isEmpty()) {
      throw SqsException.queueDoesNotExist();
    }
    if (slash > 0) {
      String account = path.substring(path.lastIndexOf('/', slash - 1) + 1, slash);
      if (account.length() == 12 && account.chars().allMatch(Character::isDigit)) {
        checkOwner(account);
      }
    }
    return name;
  }

  /** A queue of another account does not exist here. */
  public void checkOwner(String accountId) {
    if (accountId != null && !accountId.isEmpty() && !accountId.equals(this.accountId)) {
      throw SqsException.queueDoesNotExist();
    }
  }
}
