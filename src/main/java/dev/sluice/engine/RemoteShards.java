package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.Caller;
import io.vertx.core.Future;
import java.util.List;
import java.util.Set;

/**
 * The shards of other nodes, in cluster mode (design page cluster.md, §2.7): a call for a queue
 * whose shard another node holds is forwarded to it and answered from there, and a listing asks
 * the other nodes for the shards it cannot answer itself. {@link #NONE} for a single-node server,
 * whose engine holds every shard.
 */
public interface RemoteShards {
  /**
   * Runs {@code action} on the node holding {@code shard} for {@code caller}, and answers its
   * answer. Fails with the retryable ServiceUnavailable when no node serves the shard within the
   * cluster's retry time, or when the answer did not come in time (the call may have taken effect).
   */
  <Q, R> Future<R> forward(EngineAction<Q, R> action, int shard, Caller caller, Q request, CallerGone gone);

  /**
   * The names starting with {@code prefix} of the queues of {@code place} (or, given a
   * {@code deadLetterArn}, of those naming it as their dead-letter queue) on each shard of
   * {@code shards}, from the nodes holding them, each shard answered once.
   */
  Future<List<String>> queueNames(AccountRegion place, String prefix, String deadLetterArn, Set<Integer> shards);

  /** Runs {@code call} on the node holding its queue's shard, and answers its answer. */
  <T extends Record> Future<T> call(int shard, PortableCall<T> call);

  RemoteShards NONE = new RemoteShards() {
    @Override
    public <T extends Record> Future<T> call(int shard, PortableCall<T> call) {
      return Future.failedFuture(new IllegalStateException("no other node holds shard " + shard));
    }

    @Override
    public <Q, R> Future<R> forward(EngineAction<Q, R> action, int shard, Caller caller, Q request,
        CallerGone gone) {
      return Future.failedFuture(new IllegalStateException("no other node holds shard " + shard));
    }

    @Override
    public Future<List<String>> queueNames(AccountRegion place, String prefix, String deadLetterArn,
        Set<Integer> shards) {
      return shards.isEmpty() ? Future.succeededFuture(List.of())
          : Future.failedFuture(new IllegalStateException("no other node holds shards " + shards));
    }
  };
}
