package dev.sluice.outbox;

import dev.sluice.api.RelaySend;
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
  private final Map<Destination, List<Long>> stored = new LinkedHashMap<>();
  private final List<Destination> stopped = new ArrayList<>();
  private int kept;
  private String lastFailure;

  RoundOutcome(RoundPlan plan) {
    dead.addAll(plan.refused());
  }

  /** Whether the next chunk to {@code to} may be sent: no earlier chunk of it failed for now. */
  boolean sendsOn(Destination to) {
    return !stopped.contains(to);
  }

  /** {@code chunk} to {@code to} was answered: one result per entry, in order. */
  void answered(Destination to, List<RelaySend.Entry> chunk, RelaySend.Response response) {
    if (response == null || response.results() == null || response.results().size() != chunk.size()) {
      failed(to, chunk, new IllegalStateException("the engine answered "
          + (response == null || response.results() == null ? "no" : response.results().size()) + " results for "
          + chunk.size() + " rows"));
      return;
    }
    for (int i = 0; i < chunk.size(); i++) {
      RelaySend.Result r = response.results().get(i);
      long id = chunk.get(i).rowId();
      if (r.sent()) {
        deleted.add(id);
        stored.computeIfAbsent(to, d -> new ArrayList<>()).add(id);
      } else if (r.senderFault()) {
        dead.add(new DeadRow(id, r.errorCode(), r.errorMessage()));
      } else {
        kept++;
        lastFailure = to + ": " + r.errorCode() + ": " + r.errorMessage();
        stop(to);
      }
    }
  }

  /** The engine call for {@code chunk} to {@code to} failed as a whole. */
  void failed(Destination to, List<RelaySend.Entry> chunk, Throwable failure) {
    if (SendFailures.refusedForGood(failure)) {
      for (RelaySend.Entry e : chunk) {
        dead.add(SendFailures.dead(e.rowId(), failure));
      }
      return;
    }
    kept += chunk.size();
    String code = SendFailures.errorCode(failure);
    lastFailure = to + ": " + (code == null ? "" : code + ": ") + failure.getMessage();
    stop(to);
  }

  /** {@code chunk} was not sent: an earlier chunk to its destination failed for now. */
  void notSent(List<RelaySend.Entry> chunk) {
    kept += chunk.size();
  }

  private void stop(Destination to) {
    if (!stopped.contains(to)) {
      stopped.add(to);
    }
  }

  /** The destinations a failure for now stopped: their rows kept, a FIFO one's in order. */
  List<Destination> stopped() {
    return stopped;
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

  /**
   * The rows each destination's queues keep receipts of (a topic's: the queues subscribed to it),
   * to forget once the deletes are committed.
   */
  Map<Destination, List<Long>> stored() {
    return stored;
  }

  /** Every row leaving the outbox in this round's transaction. */
  List<Long> leaving() {
    List<Long> out = new ArrayList<>(deleted);
    dead.forEach(d -> out.add(d.id()));
    return out;
  }
}
