package dev.sluice.model;

import dev.sluice.api.Limits;
import dev.sluice.api.ReceiveMessage;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The FIFO receives made with a ReceiveRequestAttemptId in the last five minutes (sqs-reference
 * §6): what each returned, so that a retry with the same id gets the same messages and receipt
 * handles while none of them has been deleted or had its visibility changed. Bounded: past
 * {@link #MAX_REMEMBERED} the oldest attempts are forgotten (a retry of one is then a fresh
 * receive, which SQS also allows once the attempt is no longer valid). Owned by the shard event
 * loop of its queue.
 */
final class ReceiveAttempts {
  static final int MAX_REMEMBERED = 10_000;

  /** One attempt: the messages, and what each looked like right after the receive. */
  static final class Attempt {
    final long expiresAtMillis;
    final List<Message> messages;
    final int[] receiptSequences;
    final long[] visibleAtMillis;
    final List<ReceiveMessage.Message> views;

    Attempt(long expiresAtMillis, List<Message> messages, List<ReceiveMessage.Message> views) {
      this.expiresAtMillis = expiresAtMillis;
      this.messages = List.copyOf(messages);
      this.views = views;
      this.receiptSequences = new int[messages.size()];
      this.visibleAtMillis = new long[messages.size()];
      for (int i = 0; i < messages.size(); i++) {
        receiptSequences[i] = messages.get(i).receiptSequence;
        visibleAtMillis[i] = messages.get(i).dueAtMillis();
      }
    }

    /** True while every message is still in flight from this very receive, untouched. */
    boolean unchanged(QueueState queue) {
      for (int i = 0; i < messages.size(); i++) {
        Message m = messages.get(i);
        if (m.owner != queue || m.state != MessageState.IN_FLIGHT || m.receiptSequence != receiptSequences[i]
            || m.dueAtMillis() != visibleAtMillis[i]) {
          return false;
        }
      }
      return true;
    }
  }

  private final LinkedHashMap<String, Attempt> attempts = new LinkedHashMap<>();

  Attempt find(String attemptId, long nowMillis) {
    prune(nowMillis);
    return attempts.get(attemptId);
  }

  void remember(String attemptId, List<Message> messages, List<ReceiveMessage.Message> views, long nowMillis) {
    attempts.remove(attemptId);
    attempts.put(attemptId, new Attempt(nowMillis + Limits.DEDUPLICATION_WINDOW_MILLIS, messages, views));
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
