package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
import io.vertx.core.Future;
import java.util.List;

/**
 * Where a source's rows go: the queues and topics of its account and region, by name. The engine
 * is the one real target ({@link EngineRelayTarget}); tests put a fake in its place.
 */
interface RelayTarget {
  /**
   * Sends {@code entries} (at most ten, in id order) to {@code to}; one result per entry.
   * {@code epoch}: the fencing token of the lease the relay holds (see RelaySend).
   */
  Future<RelaySend.Response> send(Destination to, long epoch, List<RelaySend.Entry> entries);

  /** The rows {@code rowIds} sent to {@code to} left the outbox: its queues may forget their receipts. */
  Future<Void> forget(Destination to, long epoch, List<Long> rowIds);

  /** The receipts of this source the queues on this node keep, to reconcile with the outbox. */
  Future<List<RelaySend.Held>> heldHere();
}
