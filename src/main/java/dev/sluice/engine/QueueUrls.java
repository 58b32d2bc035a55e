package dev.sluice.engine;

import dev.sluice.api.SqsException;

/**
 * Queue URLs: {@code <base>/<account>/<name>} out, and back to a queue name in. A request's queue
 * is named by the last path segment of its QueueUrl; host, port and scheme are ignored (clients mix
 * localhost and 127.0.0.1), and a bare queue name is accepted as AWS does (sqs-reference §1.6).
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
  public static String nameOf(String queueUrl) {
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
    return name;
  }
}
