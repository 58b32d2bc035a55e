package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settles a round's rows as the engine answers each chunk: sent or duplicate (deleted from the
 * outbox, their receipts forgotten after the commit), refused for good (moved to the dead-row table),
 * or refused for now (kept for a later round). Once a chunk of a destination failed for now, its
 * later chunks are not sent this round ({@link #sendsOn} is false), so that a FIFO group never has
 * a later row stored before an earlier one. Owned by the relay's event loop, one per round.
 */
final class RoundOutcome {
  private final List<Long> deleted = new ArrayList<>();
  private final List<DeadRow> dead = new ArrayList<>();
  private final Map<String, List<Long>> stored = new LinkedHashMap<>();
  private final List<String> stopped = new ArrayList<>();
  private int kept;
  private String lastFailure;

  RoundOutcome(RoundPlan plan) {
    dead.addAll(plan.refused());
  }

  /** Whether the next chunk of {@code queue} may be sent: no earlier chunk of it failed for now. */
  boolean sendsOn(String queue) {
    return !stopped.contains(queue);
  }

  /** {@code chunk} of {@code queue} was answered: one result per entry, in order. */
  void answered(String queue, List<RelaySend.Entry> chunk, RelaySend.Response response) {
    if (response == null || response.results() == null || response.results().size() != chunk.size()) {
      failed(queue, chunk, new IllegalStateException("the engine answered "
          + (response == null || response.results() == null ? "no" : response.results().size()) + " results for "
          + chunk.size() + " rows"));
      return;
    }
    for (int i = 0; i < chunk.size(); i++) {
      RelaySend.Result r = response.results().get(i);
      long id = chunk.get(i).rowId();
      if (r.sent()) {
        deleted.add(id);
        stored.computeIfAbsent(queue, q -> new ArrayList<>()).add(id);
      } else if (r.senderFault()) {
        dead.add(new DeadRow(id, r.errorCode(), r.errorMessage()));
      } else {
        kept++;
        lastFailure = queue + ": " + r.errorCode() + ": " + r.errorMessage();
        stop(queue);
      }
    }
  }

  /** The engine call for {@code chunk} of {@code queue} failed as a whole. */
  void failed(String queue, List<RelaySend.Entry> chunk, Throwable failure) {
    if (SendFailures.refusedForGood(failure)) {
      for (RelaySend.Entry e : chunk) {
        dead.add(SendFailures.dead(e.rowId(), (SqsException) failure));
      }
      return;
    }
    kept += chunk.size();
    lastFailure = queue + ": " + (failure instanceof SqsException e ? e.code().queryCode() + ": " : "")
        + failure.getMessage();
    stop(queue);
  }

  /** {@code chunk} of {@code queue} was not sent: an earlier chunk of its destination failed for now. */
  void notSent(List<RelaySend.Entry> chunk) {
    kept += chunk.size();
  }

  private void stop(String queue) {
    if (!stopped.contains(queue)) {
      stopped.add(queue);
    }
  }

  /** Rows the queues hold now (sent, or found sent before): deleted from the outbox. */
  List<Long> deleted() {
    return deleted;
  }

  /** Rows refused for good: moved to the dead-row table, then deleted from the outbox. */
  List<DeadRow> dead() {
    return dead;
  }

  /** Rows left in the outbox for a later round. */
  int kept() {
    return kept;
  }

  /** The last failure that kept rows, for the admin view; null when none did. */
  String lastFailure() {
    return lastFailure;
  }

  /** The rows each queue keeps receipts of, to forget once the deletes are committed. */
  Map<String, List<Long>> stored() {
    return stored;
  }

  /** Every row leaving the outbox in this round's transaction. */
  List<Long> leaving() {
    List<Long> out = new ArrayList<>(deleted);
    dead.forEach(d -> out.add(d.id()));
    return out;
  }
}
