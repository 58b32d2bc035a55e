package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineAction;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import java.util.List;

/**
 * A source's rows sent through the engine, as its account's root in its region ({@link OutboxCaller}),
 * so that each destination queue's owner check decides as it would for the owner's own sends; in
 * cluster mode the engine forwards each call to the node owning its queue. Stateless but for the
 * source it sends for.
 */
final class EngineRelayTarget implements RelayTarget {
  private final QueueEngine engine;
  private final OutboxCaller caller;
  private final String source;

  EngineRelayTarget(QueueEngine engine, String source, String accountId, String region) {
    this.engine = engine;
    this.caller = new OutboxCaller(accountId, region);
    this.source = source;
  }

  @Override
  public Future<RelaySend.Response> send(String queueName, long epoch, List<RelaySend.Entry> entries) {
    return run(EngineActions.RELAY_SEND, new RelaySend.Request(caller.queueUrl(queueName), source, epoch, entries));
  }

  @Override
  public Future<Void> forget(String queueName, long epoch, List<Long> rowIds) {
    return run(EngineActions.RELAY_FORGET, new RelaySend.Forget(caller.queueUrl(queueName), source, epoch, rowIds));
  }

  @Override
  public Future<List<RelaySend.Held>> heldHere() {
    return engine.relays().heldHere(source);
  }

  /** Runs an engine call; a refusal before it starts is a failed future too. */
  private <Q, R> Future<R> run(EngineAction<Q, R> action, Q request) {
    try {
      return engine.run(action, caller, request, CallerGone.NOT_WATCHED);
    } catch (RuntimeException refused) {
      return Future.failedFuture(refused);
    }
  }
}
