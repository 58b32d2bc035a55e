package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends a round's plan: destinations at once, each destination's chunks one after the other (the
 * next only once the one before was answered, and not at all once one failed for now), and
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
    for (RoundPlan.Destination d : plan.destinations()) {
      destinations.add(sendFrom(d, 0, epoch, outcome));
    }
    return Future.join(destinations).transform(done -> Future.succeededFuture(outcome));
  }

  /** Sends chunk {@code i} of {@code d} and, when it was not failed for now, the ones after it. */
  private Future<Void> sendFrom(RoundPlan.Destination d, int i, long epoch, RoundOutcome outcome) {
    if (i == d.chunks().size()) {
      return Future.succeededFuture();
    }
    List<RelaySend.Entry> chunk = d.chunks().get(i);
    if (!outcome.sendsOn(d.queueName())) {
      for (int rest = i; rest < d.chunks().size(); rest++) {
        outcome.notSent(d.chunks().get(rest));
      }
      return Future.succeededFuture();
    }
    Future<RelaySend.Response> sent;
    try {
      sent = target.send(d.queueName(), epoch, chunk);
    } catch (RuntimeException refused) {
      sent = Future.failedFuture(refused);
    }
    return sent.transform(answer -> {
      if (answer.succeeded()) {
        outcome.answered(d.queueName(), chunk, answer.result());
      } else {
        outcome.failed(d.queueName(), chunk, answer.cause());
      }
      return sendFrom(d, i + 1, epoch, outcome);
    });
  }
}
