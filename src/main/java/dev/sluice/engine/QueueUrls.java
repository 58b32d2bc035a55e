package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;

/**
 * Queue URLs: {@code <base>/<account>/<name>} out, and back to a queue's key in. A request's queue
 * is named by the last two path segments of its QueueUrl; host, port and scheme are ignored
 * (clients mix localhost and 127.0.0.1), and a bare queue name is accepted as AWS does (the SQS
 * queue and message identifiers guide). A URL carries no region: the queue is the one of the
 * request's region. Its account segment names the owner, which may be another account than the
 * caller's; without one, the caller's account owns the queue. Pure.
 */
public final class QueueUrls {
  private QueueUrls() {}

  public static String urlOf(String baseUrl, QueueKey queue) {
    return baseUrl + "/" + queue.accountId() + "/" + queue.name();
  }

  /** The queue a QueueUrl names for a caller acting in {@code caller}; MissingParameter when absent. */
  public static QueueKey keyOf(AccountRegion caller, String queueUrl) {
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
    String owner = caller.accountId();
    if (slash > 0) {
      String account = path.substring(path.lastIndexOf('/', slash - 1) + 1, slash);
      if (isAccountId(account)) {
        owner = account;
      }
    }
    return new QueueKey(owner, caller.region(), name);
  }

  /** Whether {@code s} is a 12-digit account id, as queue URLs and ARNs carry them. */
  public static boolean isAccountId(String s) {
    return s != null && s.length() == 12 && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }
}
