package dev.sluice.invoke;

import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.DeleteMessageBatch;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.engine.AccountRoot;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineAction;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.PushRequests;
import dev.sluice.engine.QueueEngine;
import dev.sluice.triggers.Trigger;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * A trigger's queue as its pollers use it: every call goes through the engine as the trigger's
 * owner (an {@link AccountRoot}), so the queue's owner check decides it as it would any client's.
 * Stateless but for the queue it names.
 */
final class TriggerQueue {
  private final QueueEngine engine;
  private final AccountRoot caller;
  private final String url;
  private final String arn;

  TriggerQueue(QueueEngine engine, Trigger trigger) {
    this.engine = engine;
    this.caller = new AccountRoot(trigger.owner(), trigger.queue().region(), "trigger");
    // The queue's own account, which a policy may have let the owner's pollers reach.
    this.url = AccountRoot.BASE_URL + "/" + trigger.queue().accountId() + "/" + trigger.queue().name();
    this.arn = trigger.queueArn();
  }

  String arn() {
    return arn;
  }

  /** A receive, parked in the engine while the queue is empty; {@code gone} lets it go. */
  Future<ReceiveMessage.Response> receive(ReceiveMessage.Request request, CallerGone gone) {
    try {
      return engine.run(EngineActions.RECEIVE_MESSAGE, caller, request, gone);
    } catch (RuntimeException refused) {
      return Future.failedFuture(refused);
    }
  }

  /** A receive of up to {@code wanted} records, waiting up to {@code waitSeconds}, with every attribute. */
  ReceiveMessage.Request receiveRequest(int wanted, int waitSeconds) {
    return new ReceiveMessage.Request(url, List.of("All"), List.of("All"), List.of("All"), wanted, null, waitSeconds,
        null);
  }

  /**
   * Deletes the receipts {@code handles}, ten at a time; answers, once all were tried, how many
   * were refused (a FIFO queue refuses an expired receipt).
   */
  Future<Integer> delete(List<String> handles) {
    List<Future<BatchIdsResponse>> deletes = new ArrayList<>();
    for (int from = 0; from < handles.size(); from += 10) {
      List<DeleteMessageBatch.Entry> entries = new ArrayList<>();
      for (int i = from; i < Math.min(handles.size(), from + 10); i++) {
        entries.add(new DeleteMessageBatch.Entry(Integer.toString(i), handles.get(i)));
      }
      deletes.add(run(EngineActions.DELETE_MESSAGE_BATCH, new DeleteMessageBatch.Request(url, entries)));
    }
    return Future.join(deletes).transform(done -> {
      int refused = 0;
      for (int i = 0; i < deletes.size(); i++) {
        Future<BatchIdsResponse> d = deletes.get(i);
        refused += d.succeeded() ? d.result().failed().size() : Math.min(10, handles.size() - i * 10);
      }
      return Future.succeededFuture(refused);
    });
  }

  /** Makes the receipts {@code handles} visible again at once: gathered, never delivered. */
  void giveBack(List<String> handles) {
    if (!handles.isEmpty()) {
      run(EngineActions.GIVE_BACK, new PushRequests.GiveBack(url, handles));
    }
  }

  /** The queue's visibility timeout, in seconds. */
  Future<Integer> visibilitySeconds() {
    return run(EngineActions.PUSH_VISIBILITY_TIMEOUT, new PushRequests.VisibilityTimeout(url))
        .map(PushRequests.Seconds::seconds);
  }

  /** Runs an engine call as the trigger's owner; a refusal before it starts is a failed future too. */
  private <Q, R> Future<R> run(EngineAction<Q, R> action, Q request) {
    try {
      return engine.run(action, caller, request, CallerGone.NOT_WATCHED);
    } catch (RuntimeException refused) {
      return Future.failedFuture(refused);
    }
  }
}
