package dev.sluice.model;

import dev.sluice.api.ReceiveMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * Owned by its queue, on the shard event loop that owns the queue: the queue's parked receives.
 *
 * <p>ReceiveMessage on one queue: takes visible messages in delivery order and puts them in flight,
 * moves those already received maxReceiveCount times to the dead-letter queue instead, and keeps
 * the receives that found nothing parked until messages come for them.
 */
final class Receiving {
  private final ShardResources env;
  private final MessageStore store;
  private final QueueTypeRules rules;
  /** The queue itself, as dead letters name their source. */
  private final QueueState queue;
  private final ParkedReceives parked;

  Receiving(ShardResources env, MessageStore store, QueueTypeRules rules, QueueState queue) {
    this.env = env;
    this.store = store;
    this.rules = rules;
    this.queue = queue;
    this.parked = new ParkedReceives(env.index(), env.parking());
  }

  /**
   * Receives up to the spec's maximum right now; an empty list when nothing is receivable. A
   * message that has already been received maxReceiveCount times moves to the dead-letter queue
   * instead of being returned (AWS: Amazon SQS dead-letter queues), and the receive goes on with
   * the next one. A FIFO receive retried with its attempt id may be answered as it was before.
   */
  List<ReceiveMessage.Message> receive(ReceiveSpec spec, long nowMillis) {
    if (spec.attemptId() != null) {
      List<ReceiveMessage.Message> again = rules.replay(spec, nowMillis);
      if (again != null) {
        return again;
      }
    }
    int room = env.maxInflightPerQueue() - store.inflightCount();
    int max = spec.visibilitySeconds() == 0 ? spec.maxMessages() : Math.min(spec.maxMessages(), room);
    if (max <= 0) {
      return List.of();
    }
    RedrivePolicy redrive = store.attributes().redrivePolicy();
    if (redrive != null && !env.deadLetters().exists(redrive.deadLetterTargetArn())) {
      redrive = null;
    }
    List<Message> batch = new ArrayList<>(max);
    List<Message> received = new ArrayList<>(max);
    List<ReceiveMessage.Message> out = new ArrayList<>(max);
    long visibilityMillis = spec.visibilitySeconds() * 1000L;
    while (received.size() < max) {
      batch.clear();
      int wanted = max - received.size();
      store.takeReceivable(wanted, batch);
      List<Message> deadLetters = null;
      for (Message m : batch) {
        if (redrive != null && m.receiveCount() >= redrive.maxReceiveCount()) {
          (deadLetters == null ? deadLetters = new ArrayList<>() : deadLetters).add(m);
          continue;
        }
        store.received(m, visibilityMillis, nowMillis);
        out.add(ReceivedMessages.view(m, store.receiptHandle(m), spec.selection()));
        received.add(m);
      }
      if (deadLetters == null) {
        if (batch.size() < wanted && store.backlog().operations().pageNow(nowMillis)) {
          continue; // paged mode: a page of durable-only rows came in at once
        }
        break; // takeReceivable took all it could
      }
      for (Message m : deadLetters) {
        store.detachForMove(m);
        env.deadLetters().moveTo(redrive.deadLetterTargetArn(), queue, m, nowMillis);
      }
    }
    if (visibilityMillis == 0 && !received.isEmpty()) {
      // Visibility 0 leaves the messages receivable at once (AWS: Amazon SQS visibility timeout),
      // in their order.
      store.returnReceived(received);
    }
    rules.received(spec, received, nowMillis);
    return out;
  }

  /** True when the in-flight cap is reached: a short poll then answers OverLimit (AWS quotas). */
  boolean inflightLimitReached() {
    return store.inflightCount() >= env.maxInflightPerQueue();
  }

  /**
   * Paged mode: a short poll that found nothing may wait for a page of visible durable-only rows
   * being read (or about to be, at the end of this call) rather than answer empty while the queue
   * counts them; not at the in-flight cap (no page could serve it) nor past the parking bounds.
   * False in memory mode.
   */
  boolean shortPollMayWaitForPage() {
    return !inflightLimitReached() && store.backlog().operations().pageComing() && parked.hasRoom();
  }

  /** Parks a receive that found nothing until {@code deadlineMillis}; throttled past the bounds. */
  void park(Waiter w, long deadlineMillis) {
    parked.park(w, deadlineMillis);
  }

  /** Drops a parked receive whose caller went away; it will never complete. */
  void cancel(Waiter w) {
    parked.cancel(w);
  }

  /** The server is stopping: every parked receive answers now, with no messages. */
  void answerParkedEmpty() {
    parked.answerAllEmpty();
  }

  int parkedCount() {
    return parked.size();
  }

  /** Hands receivable messages to the oldest parked receives, one receive each, until none fit. */
  void serveWaiters(long nowMillis) {
    while (!parked.isEmpty() && (store.hasReceivable() || store.backlog().hasDueRows()) && !inflightLimitReached()) {
      Waiter w = parked.oldest();
      if (w == null) {
        return;
      }
      List<ReceiveMessage.Message> got = receive(w.spec, nowMillis);
      if (got.isEmpty()) {
        return; // all it found went to the dead-letter queue: the waiter keeps waiting
      }
      parked.take(w);
      w.complete(got);
    }
  }
}
