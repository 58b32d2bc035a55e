package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.RedeliveryBackoffPolicy;
import dev.sluice.api.SqsException;
import dev.sluice.model.RedeliveryBackoff;
import io.vertx.core.Future;

/**
 * A queue's redelivery backoff, read and set on the shard that owns the queue (a cluster node
 * forwards the call there, as SetQueueAttributes). A change is acknowledged once the queue's row
 * holding it is written ({@link OwningShard#onQueueUrlDurably}), so it survives a restart. Checked
 * as the attribute actions are, though the policy is no attribute. Stateless.
 */
public final class RedeliveryBackoffActions {
  private final OwningShard owningShard;

  RedeliveryBackoffActions(OwningShard owningShard) {
    this.owningShard = owningShard;
  }

  public Future<RedeliveryBackoffPolicy.Response> get(Caller c, RedeliveryBackoffPolicy.GetRequest r) {
    return owningShard.onQueueUrl(c, "GetQueueAttributes", r.queueUrl(), (s, q) -> {
      RedeliveryBackoff p = q.metadata().redeliveryBackoff();
      return p == null ? new RedeliveryBackoffPolicy.Response(null, null)
          : new RedeliveryBackoffPolicy.Response(p.baseSeconds(), p.maxSeconds());
    });
  }

  public Future<RedeliveryBackoffPolicy.Response> set(Caller c, RedeliveryBackoffPolicy.SetRequest r) {
    RedeliveryBackoff policy;
    try {
      policy = policyOf(r);
    } catch (SqsException refused) {
      return Future.failedFuture(refused);
    }
    return owningShard.onQueueUrlDurably(c, "SetQueueAttributes", r.queueUrl(), (s, q) -> {
      q.setRedeliveryBackoff(policy);
      return new RedeliveryBackoffPolicy.Response(r.baseSeconds(), r.maxSeconds());
    });
  }

  /** The policy asked for, null to remove it; InvalidParameterValue saying why when it is none. */
  static RedeliveryBackoff policyOf(RedeliveryBackoffPolicy.SetRequest r) {
    if (r.baseSeconds() == null && r.maxSeconds() == null) {
      return null;
    }
    if (r.baseSeconds() == null || r.maxSeconds() == null) {
      throw SqsException.invalidParameter("A redelivery backoff takes both baseSeconds and maxSeconds.");
    }
    String problem = RedeliveryBackoff.problem(r.baseSeconds(), r.maxSeconds());
    if (problem != null) {
      throw SqsException.invalidParameter("Invalid redelivery backoff: " + problem + ".");
    }
    return new RedeliveryBackoff(r.baseSeconds(), r.maxSeconds());
  }
}
