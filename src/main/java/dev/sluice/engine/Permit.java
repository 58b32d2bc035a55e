package dev.sluice.engine;

import dev.sluice.access.AccessDenial;
import dev.sluice.access.AccessEvaluator;
import dev.sluice.access.AccessRequest;
import dev.sluice.access.Decision;
import dev.sluice.access.IdentityPolicy;
import dev.sluice.access.PolicyDocument;
import dev.sluice.access.RequestContext;
import dev.sluice.access.Requester;
import dev.sluice.api.AccountRegion;
import dev.sluice.api.Caller;
import dev.sluice.api.QueueKey;
import dev.sluice.model.QueueArns;
import dev.sluice.model.QueueState;
import io.vertx.core.Future;

/**
 * One caller's request to do one action, checked against each queue it touches on the shard that
 * owns that queue, where the queue's policy lives: the owner check of the SQS APIs, decided here
 * and nowhere else (AWS's policy evaluation, by {@link AccessEvaluator}). A denial travels back as
 * an exception and becomes AccessDenied, in each protocol's wording, on the caller's own loop
 * ({@link #answered}), where the queue URL it names can be read from the request.
 */
final class Permit {
  private final Caller caller;
  private final String action;
  private final Requester requester;

  Permit(Caller caller, String action, Requester requester) {
    this.caller = caller;
    this.action = action;
    this.requester = requester;
  }

  /**
   * On the queue's shard: whether the request may touch the queue {@code key}, which may not exist
   * ({@code q} null). The caller's own missing queue is still asked of its permissions (CreateQueue
   * makes it); another account's missing queue has nothing to protect, and the caller is answered
   * QueueDoesNotExist as SQS answers it. Throws the denial.
   */
  void check(QueueKey key, QueueState q) {
    if (q == null && !key.accountId().equals(requester.accountId())) {
      return;
    }
    PolicyDocument policy = q == null ? null : q.attributes().policyDocument();
    if (policy == null && requester.identity() == IdentityPolicy.FULL_ACCESS
        && key.accountId().equals(requester.accountId())) {
      return; // the common case: an account's own queue, no policy, no listed permissions
    }
    String arn = q == null ? QueueArns.arnOf(key) : q.metadata().arn();
    Decision d = AccessEvaluator.decide(new AccessRequest(requester, action, arn, policy, RequestContext.NONE));
    if (!d.allowed()) {
      throw new Refused(d.denial(), key);
    }
  }

  /** On the queue's shard: whether {@link #check} would let the request touch the queue, without throwing. */
  boolean allows(QueueKey key, QueueState q) {
    try {
      check(key, q);
      return true;
    } catch (Refused refused) {
      return false;
    }
  }

  /**
   * On the caller's loop, for actions on all of an account's queues of a region (ListQueues): its
   * identity must allow the action on every queue there, as AWS asks of a resource of "*".
   */
  void checkAll(AccountRegion place) {
    if (requester.identity() == IdentityPolicy.FULL_ACCESS && place.accountId().equals(requester.accountId())) {
      return;
    }
    Decision d = AccessEvaluator.decide(
        new AccessRequest(requester, action, QueueArns.arnOf(place.queue("*")), null, RequestContext.NONE));
    if (!d.allowed()) {
      throw d.denial().error(caller.baseUrl() + "/");
    }
  }

  /** On the caller's loop: {@code answer}, with a denial turned into the error the client gets. */
  <R> Future<R> answered(Future<R> answer) {
    return answer.recover(failure -> failure instanceof Refused r
        ? Future.failedFuture(r.denial.error(QueueUrls.urlOf(caller.baseUrl(), r.key)))
        : Future.failedFuture(failure));
  }

  /** A denial on its way from the shard to the caller's loop. No stack trace: it is an answer. */
  private static final class Refused extends RuntimeException {
    final transient AccessDenial denial;
    final transient QueueKey key;

    Refused(AccessDenial denial, QueueKey key) {
      super(null, null, false, false);
      this.denial = denial;
      this.key = key;
    }
  }
}
