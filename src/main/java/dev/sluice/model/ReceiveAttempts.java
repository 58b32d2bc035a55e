package dev.sluice.model;

import dev.sluice.api.Limits;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The FIFO receives made with a ReceiveRequestAttemptId in the last five minutes (the SQS FIFO
 * queues guide): which messages each returned and how they stood right after, so that a retry with the same
 * id gets the same messages and receipt handles while none of them has been deleted or had its
 * visibility changed. Only keys and numbers are kept, never message bodies. Bounded: past
 * {@link #MAX_REMEMBERED} the oldest attempts are forgotten (a retry of one is then a fresh
 * receive, as SQS also treats an attempt it no longer honours). Owned by the shard event loop of
 * its queue.
 */
final class ReceiveAttempts {
  static final int MAX_REMEMBERED = 10_000;

  /** One attempt: the messages' keys, receipt numbers and visibility deadlines after the receive. */
  static final class Attempt {
    final long expiresAtMillis;
    final AttributeSelection selection;
    final long[] keys;
    final int[] receiptSequences;
    private final long[] visibleAtMillis;

    Attempt(long expiresAtMillis, AttributeSelection selection, List<Message> messages) {
      this.expiresAtMillis = expiresAtMillis;
      this.selection = selection;
      this.keys = new long[messages.size()];
      this.receiptSequences = new int[messages.size()];
      this.visibleAtMillis = new long[messages.size()];
      for (int i = 0; i < messages.size(); i++) {
        keys[i] = messages.get(i).key;
        receiptSequences[i] = messages.get(i).receiptSequence();
        visibleAtMillis[i] = messages.get(i).dueAtMillis();
      }
    }

    /** A retry of the attempt started message {@code i}'s visibility again. */
    void visibleAgainUntil(int i, long visibleAtMillis) {
      this.visibleAtMillis[i] = visibleAtMillis;
    }

    /** True while message {@code i} is still in flight from this very receive, untouched. */
    boolean unchanged(int i, Message m) {
      return m != null && m.state() == MessageState.IN_FLIGHT && m.receiptSequence() == receiptSequences[i]
          && m.dueAtMillis() == visibleAtMillis[i];
    }
  }

  private final LinkedHashMap<String, Attempt> attempts = new LinkedHashMap<>();

  Attempt find(String attemptId, long nowMillis) {
    prune(nowMillis);
    return attempts.get(attemptId);
  }

  void remember(String attemptId, AttributeSelection selection, List<Message> messages, long nowMillis) {
    attempts.remove(attemptId);
    attempts.put(attemptId, new Attempt(nowMillis + Limits.DEDUPLICATION_WINDOW_MILLIS, selection, messages));
    if (attempts.size() > MAX_REMEMBERED) {
      Iterator<Attempt> it = attempts.values().iterator();
      it.next();
      it.remove();
    }
  }

  void clear() {
    attempts.clear();
  }

  private void prune(long nowMillis) {
    Iterator<Attempt> it = attempts.values().iterator();
    while (it.hasNext() && it.next().expiresAtMillis <= nowMillis) {
      it.remove();
    }
  }
}
