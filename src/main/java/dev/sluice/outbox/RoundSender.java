package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends a round's plan: destinations at once; a FIFO destination's chunks one after the other (the
 * next only once the one before was answered, and not at all once one failed for now), a standard
 * one's all at once (their order is not kept anyway, and they share the store's commits); and
 * settles every row in a {@link RoundOutcome}. Completes when every destination is done; never
 * fails (a failed call is an outcome). Runs on the relay's event loop, which the target's futures
 * complete on or are brought back to by Vert.x.
 */
final class RoundSender {
  private final RelayTarget target;

  RoundSender(RelayTarget target) {
    this.target = target;
  }

  /** Sends {@code plan} under the lease of fencing token {@code epoch}. */
  Future<RoundOutcome> send(RoundPlan plan, long epoch) {
    RoundOutcome outcome = new RoundOutcome(plan);
    List<Future<Void>> destinations = new ArrayList<>();
    for (RoundPlan.Sends d : plan.sends()) {
      if (d.destination().ordered()) {
        destinations.add(sendFrom(d, 0, epoch, outcome));
      } else {
        for (List<RelaySend.Entry> chunk : d.chunks()) {
          destinations.add(sendChunk(d, chunk, epoch, outcome));
        }
      }
    }
    return Future.join(destinations).transform(done -> Future.succeededFuture(outcome));
  }

  /** Sends chunk {@code i} of {@code d} and, when it was not failed for now, the ones after it. */
  private Future<Void> sendFrom(RoundPlan.Sends d, int i, long epoch, RoundOutcome outcome) {
    if (i == d.chunks().size()) {
      return Future.succeededFuture();
    }
    List<RelaySend.Entry> chunk = d.chunks().get(i);
    if (!outcome.sendsOn(d.destination())) {
      for (int rest = i; rest < d.chunks().size(); rest++) {
        outcome.notSent(d.chunks().get(rest));
      }
      return Future.succeededFuture();
    }
    return sendChunk(d, chunk, epoch, outcome).compose(sent -> sendFrom(d, i + 1, epoch, outcome));
  }

  /** Sends one chunk and settles its rows; never fails. */
  private Future<Void> sendChunk(RoundPlan.Sends d, List<RelaySend.Entry> chunk, long epoch, RoundOutcome outcome) {
    Future<RelaySend.Response> sent;
    try {
      sent = target.send(d.destination(), epoch, chunk);
    } catch (RuntimeException refused) {
      sent = Future.failedFuture(refused);
    }
    return sent.transform(answer -> {
      if (answer.succeeded()) {
        outcome.answered(d.destination(), chunk, answer.result());
      } else {
        outcome.failed(d.destination(), chunk, answer.cause());
      }
      return Future.succeededFuture();
    });
  }
}
