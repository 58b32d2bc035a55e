package dev.sluice.push;

import dev.sluice.api.ChangeMessageVisibility;
import dev.sluice.api.DeleteMessage;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.PushRequests;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One subscriber's consumption of one queue. It receives through the engine exactly as an HTTP
 * long poll does (one receive at a time, parked while the queue is empty), so push subscribers and
 * HTTP consumers share a queue fairly, FIFO groups stay locked while pushed messages are in flight,
 * and maxReceiveCount and dead-letter queues apply. It holds at most {@code prefetch}
 * unacknowledged messages: each ack, nack or visibility expiry frees a slot. With auto credit a
 * free slot is filled at once; with demand credit only as far as the client granted credits with
 * {@code sluice.credit} ({@link CreditGrant}). Owned by the push service's event loop.
 */
final class QueueSubscription extends PushSubscription {
  /** Wait of each receive; a new one follows at once, so this only bounds how long one stays parked. */
  static final int WAIT_SECONDS = 20;
  static final long RETRY_MILLIS = 1000;
  /** How much earlier than the engine a subscription considers a message's visibility over. */
  static final long HANDLE_MARGIN_MILLIS = 500;
  /**
   * How often a subscription holding messages with no receive out (its prefetch full, or its
   * demand credit used) checks that its queue still exists: a deleted queue is otherwise noticed
   * only by its next receive, which such a subscriber may never make. One that holds nothing learns
   * it at its next receive (for a demand subscription: when it is granted credit).
   */
  static final long PROBE_MILLIS = 1000;

  /** Who the subscription consumes as: the account and region its queue URL is read in. */
  private final BridgeCaller caller;
  final String queue;
  final int prefetch;
  final int visibilitySeconds;
  private final QueueEngine engine;
  private final Vertx vertx;
  /** Receipt handle → when the message becomes visible again unless acked or extended (epoch ms). */
  private final Map<String, Long> inFlight = new LinkedHashMap<>();
  /** What the next receive may ask for; also whether one is out. */
  private final CreditGrant credits;
  private boolean started;
  private boolean closed;
  private boolean probing;
  private long probedAtMillis;
  private final CallerGone gone = new CallerGone();

  QueueSubscription(String id, String connectionId, BridgeCaller caller, String queue, int prefetch,
      int visibilitySeconds, boolean demand, QueueEngine engine, Vertx vertx) {
    super(id, connectionId);
    this.credits = demand ? CreditGrant.demand(prefetch) : CreditGrant.auto(prefetch);
    this.caller = caller;
    this.queue = queue;
    this.prefetch = prefetch;
    this.visibilitySeconds = visibilitySeconds;
    this.engine = engine;
    this.vertx = vertx;
  }

  @Override
  void start() {
    if (!started) {
      started = true;
      pump();
    }
  }

  private void pump() {
    if (!started || closed || credits.receiving()) {
      return;
    }
    int asked = credits.reserve(inFlight.size());
    if (asked == 0) {
      return;
    }
    ReceiveMessage.Request request = new ReceiveMessage.Request(queue, List.of("All"), null, List.of("All"),
        asked, visibilitySeconds, WAIT_SECONDS, null);
    // Taken before the receive, and a margin short: the engine's own deadline for these messages
    // is later, so this subscription lets go of a handle before the queue can hand its message on.
    long deadline = System.currentTimeMillis() + visibilitySeconds * 1000L - HANDLE_MARGIN_MILLIS;
    Future<ReceiveMessage.Response> received;
    try {
      received = engine.run(EngineActions.RECEIVE_MESSAGE, caller, request, gone);
    } catch (RuntimeException e) {
      received = Future.failedFuture(e);
    }
    received.onComplete((response, failure) -> {
      if (failure != null) {
        credits.answered(0);
        onReceiveFailed(failure);
        return;
      }
      int pushed = 0;
      try {
        // Closed meanwhile: the engine has already made these visible again (the receive's caller
        // was gone when its answer came), so they are not touched here.
        if (!closed) {
          for (ReceiveMessage.Message m : response.messages()) {
            inFlight.put(m.receiptHandle(), deadline);
            vertx.eventBus().send(address, PushMessages.delivery(id, m));
            pushed++;
          }
        }
      } finally {
        credits.answered(pushed); // what was asked for and not pushed goes back to the grant
        pump();
      }
    });
  }

  private void onReceiveFailed(Throwable failure) {
    if (closed) {
      return;
    }
    if (failure instanceof SqsException e && e.code() == ErrorCode.QUEUE_DOES_NOT_EXIST) {
      vertx.eventBus().send(address, PushMessages.ended(id, failure));
      closed = true;
      return;
    }
    // Throttled or at the in-flight cap: try again shortly rather than spin.
    vertx.setTimer(RETRY_MILLIS, t -> pump());
  }

  @Override
  Future<Void> ack(JsonObject request) {
    return ack(PushParameters.handle(request));
  }

  @Override
  Future<Void> nack(JsonObject request) {
    return nack(PushParameters.handle(request),
        PushParameters.integer(request, "delaySeconds", 0, Limits.VISIBILITY_SECONDS_MAX, 0));
  }

  @Override
  Future<Void> extend(JsonObject request) {
    return extend(PushParameters.handle(request),
        PushParameters.integer(request, "visibilityTimeout", 0, Limits.VISIBILITY_SECONDS_MAX, null));
  }

  /** {@code sluice.credit}: a demand subscription may push {@code credits} more, within prefetch. */
  @Override
  Future<Void> credit(JsonObject request) {
    checkOpen();
    if (!credits.demand) {
      throw SqsException.invalidParameter("The subscription is not a demand subscription (subscribe with"
          + " \"credit\": \"demand\"): each ack, nack or expiry gives its credit back by itself.");
    }
    credits.add(PushParameters.integer(request, "credits", 1, prefetch, null));
    pump();
    return Future.succeededFuture();
  }

  private Future<Void> ack(String receiptHandle) {
    checkHeld(receiptHandle);
    release(receiptHandle); // at once: a close meanwhile must not touch it again
    return engine.run(EngineActions.DELETE_MESSAGE, caller, new DeleteMessage.Request(queue, receiptHandle),
        CallerGone.NOT_WATCHED);
  }

  /** Makes the message visible again after {@code delaySeconds} (0: at once) and frees its credit. */
  private Future<Void> nack(String receiptHandle, int delaySeconds) {
    checkHeld(receiptHandle);
    release(receiptHandle); // at once: a close meanwhile must not make it visible a second time
    return engine.run(EngineActions.CHANGE_MESSAGE_VISIBILITY, caller,
        new ChangeMessageVisibility.Request(queue, receiptHandle, delaySeconds), CallerGone.NOT_WATCHED);
  }

  /** Keeps the message for {@code seconds} more from now; it stays unacknowledged. */
  private Future<Void> extend(String receiptHandle, int seconds) {
    checkHeld(receiptHandle);
    return engine.run(EngineActions.CHANGE_MESSAGE_VISIBILITY, caller,
            new ChangeMessageVisibility.Request(queue, receiptHandle, seconds), CallerGone.NOT_WATCHED)
        .onSuccess(v -> {
          if (inFlight.containsKey(receiptHandle)) {
            inFlight.put(receiptHandle, System.currentTimeMillis() + seconds * 1000L - HANDLE_MARGIN_MILLIS);
          }
        });
  }

  /** Frees the slots of messages whose visibility ran out: the queue has them back. */
  @Override
  void expireOverdue(long nowMillis) {
    boolean freed = false;
    for (Iterator<Long> it = inFlight.values().iterator(); it.hasNext(); ) {
      if (it.next() <= nowMillis) {
        it.remove();
        freed = true;
      }
    }
    if (freed) {
      pump();
    }
    if (started && !closed && !inFlight.isEmpty() && !credits.receiving() && !probing
        && nowMillis - probedAtMillis >= PROBE_MILLIS) {
      probe(nowMillis);
    }
  }

  /** Ends the subscription if its queue was deleted while no receive was out to notice it. */
  private void probe(long nowMillis) {
    probing = true;
    probedAtMillis = nowMillis;
    Future<PushRequests.Seconds> probed;
    try {
      probed = engine.run(EngineActions.PUSH_VISIBILITY_TIMEOUT, caller, new PushRequests.VisibilityTimeout(queue),
          CallerGone.NOT_WATCHED);
    } catch (RuntimeException e) {
      probed = Future.failedFuture(e);
    }
    probed.onComplete((seconds, failure) -> {
      probing = false;
      if (failure instanceof SqsException e && e.code() == ErrorCode.QUEUE_DOES_NOT_EXIST) {
        onReceiveFailed(failure);
      }
    });
  }

  /** Ends the subscription: a parked receive is dropped, unacknowledged messages are visible at once. */
  @Override
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    gone.fire();
    expireOverdue(System.currentTimeMillis()); // a handle past its time may name someone else's delivery now
    List<String> held = new ArrayList<>(inFlight.keySet());
    inFlight.clear();
    if (held.isEmpty()) {
      return;
    }
    // Not a client's call: done whether or not the server serves (it may be closing because it
    // stopped). A queue gone meanwhile took its messages with it; one whose node cannot be reached
    // gets them back after their visibility timeout.
    engine.run(EngineActions.GIVE_BACK, caller, new PushRequests.GiveBack(queue, held), CallerGone.NOT_WATCHED);
  }

  private void release(String receiptHandle) {
    if (inFlight.remove(receiptHandle) != null) {
      pump();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new SqsException(ErrorCode.RESOURCE_NOT_FOUND, "The subscription has ended.");
    }
  }

  private void checkHeld(String receiptHandle) {
    checkOpen();
    Long deadline = inFlight.get(receiptHandle);
    if (deadline == null || deadline <= System.currentTimeMillis()) {
      throw new SqsException(ErrorCode.RECEIPT_HANDLE_IS_INVALID,
          "The receipt handle is not one this subscription holds: acknowledged already, expired, or another's.");
    }
  }
}
