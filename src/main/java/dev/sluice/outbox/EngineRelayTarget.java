package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.engine.AccountRoot;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineAction;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import java.util.List;

/**
 * A source's rows sent through the engine, as its account's root in its region ({@link AccountRoot}),
 * so that each destination's owner check decides as it would for the owner's own sends and
 * publishes; in cluster mode the engine forwards each queue's call to the node owning the queue.
 * Stateless but for the source it sends for.
 */
final class EngineRelayTarget implements RelayTarget {
  private final QueueEngine engine;
  private final AccountRoot caller;
  private final String source;

  EngineRelayTarget(QueueEngine engine, String source, String accountId, String region) {
    this.engine = engine;
    this.caller = new AccountRoot(accountId, region, "outbox");
    this.source = source;
  }

  @Override
  public Future<RelaySend.Response> send(Destination to, long epoch, List<RelaySend.Entry> entries) {
    return switch (to.kind()) {
      case QUEUE -> run(EngineActions.RELAY_SEND, new RelaySend.Request(caller.queueUrl(to.name()), source, epoch,
          entries));
      case TOPIC -> run(EngineActions.RELAY_PUBLISH, new RelaySend.Publish(new TopicKey(caller.accountId(), caller.region(), to.name()).arn(), source, epoch,
          entries));
    };
  }

  /**
   * A queue forgets its own receipts. A topic's copies keep theirs in the queues subscribed to it
   * (or subscribed when the row was published), all on this node since topics are not served in
   * cluster mode: every queue here forgets the rows, a row's id naming it in one destination only.
   */
  @Override
  public Future<Void> forget(Destination to, long epoch, List<Long> rowIds) {
    return switch (to.kind()) {
      case QUEUE -> run(EngineActions.RELAY_FORGET, new RelaySend.Forget(caller.queueUrl(to.name()), source, epoch,
          rowIds));
      case TOPIC -> {
        try {
          yield engine.relays().forgetHere(source, epoch, rowIds);
        } catch (RuntimeException refused) {
          yield Future.failedFuture(refused);
        }
      }
    };
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
