package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
import io.vertx.core.Future;
import java.util.List;

/**
 * Where a source's rows go: the queues of its account and region, named by queue name. The engine
 * is the one real target ({@link EngineRelayTarget}); tests put a fake in its place.
 */
interface RelayTarget {
  /**
   * Sends {@code entries} (at most ten, in id order) to {@code queueName}; one result per entry.
   * {@code epoch}: the fencing token of the lease the relay holds (see RelaySend).
   */
  Future<RelaySend.Response> send(String queueName, long epoch, List<RelaySend.Entry> entries);

  /** The rows {@code rowIds} left the outbox: {@code queueName} may forget their receipts. */
  Future<Void> forget(String queueName, long epoch, List<Long> rowIds);

  /** The receipts of this source the queues on this node keep, to reconcile with the outbox. */
  Future<List<RelaySend.Held>> heldHere();
}
