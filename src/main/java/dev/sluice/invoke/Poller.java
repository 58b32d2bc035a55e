package dev.sluice.invoke;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.engine.CallerGone;
import dev.sluice.triggers.BatchAssembler;
import dev.sluice.triggers.SqsEvent;
import dev.sluice.triggers.Trigger;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One receive → batch → invoke → settle loop of a trigger (design/triggers.md §2.6). It holds at
 * most one batch and makes at most one request, and never receives while its invoke is open, so a
 * trigger's requests in flight are never more than its pollers. A receive that finds nothing is
 * parked in the engine like any long poll. Owned by its runner's event loop.
 */
final class Poller {
  /** The long poll of a receive when no batch is being gathered. */
  static final int WAIT_SECONDS = 20;
  /** The wait after a receive the queue refused (gone, not permitted) before the next. */
  static final long QUEUE_RETRY_MILLIS = 10_000;
  /** The wait after a receive refused for a while (throttled, not serving). */
  static final long BUSY_RETRY_MILLIS = 1_000;

  private final TriggerRunner runner;
  private final CallerGone gone = new CallerGone();
  /** The records held (being gathered or invoked), by message id. */
  private final Map<String, ReceiveMessage.Message> held = new LinkedHashMap<>();
  private BatchAssembler assembler;
  /** The definition {@link #assembler} gathers for: a change applies from the next batch. */
  private Trigger assembledFor;
  private boolean stopped;

  Poller(TriggerRunner runner) {
    this.runner = runner;
  }

  void start() {
    next();
  }

  /** Stops: a parked receive is let go, and what is being gathered is visible again at once. */
  void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    gone.fire();
    if (assembler != null) {
      List<String> handles = new ArrayList<>();
      for (BatchAssembler.Record r : assembler.held()) {
        ReceiveMessage.Message m = held.remove(r.messageId());
        if (m != null) {
          handles.add(m.receiptHandle());
        }
      }
      runner.queue().giveBack(handles);
    }
  }

  private void next() {
    if (stopped) {
      return;
    }
    if (runner.shouldEnd(this)) {
      stop();
      return;
    }
    long wait = runner.backoffLeftMillis();
    if (wait > 0) {
      runner.vertx().setTimer(wait, t -> next());
      return;
    }
    receive();
  }

  private void receive() {
    Trigger t = runner.trigger();
    if (assembler == null || assembledFor != t && assembler.held().isEmpty()) {
      assembledFor = t;
      assembler = new BatchAssembler(t.settings().batchSize(), t.settings().batchingWindowSeconds(),
          t.target().timeoutSeconds() * 1000L);
    }
    long now = System.currentTimeMillis();
    if (assembler.ready(now)) {
      // What the last batch held over (a record past the 6 MB bound) may be a batch already.
      invoke(assembledFor, assembler.take(now));
      return;
    }
    boolean gathering = !assembler.held().isEmpty();
    int waitSeconds = gathering ? (int) Math.min(WAIT_SECONDS, (assembler.waitMillis(now) + 999) / 1000) : WAIT_SECONDS;
    int wanted = assembler.wanted();
    ReceiveMessage.Request request = runner.queue().receiveRequest(wanted, waitSeconds);
    // Taken before the receive: the engine's deadline for these messages is later.
    long visibleUntil = now + runner.visibilitySeconds() * 1000L;
    Future<ReceiveMessage.Response> received = runner.queue().receive(request, gone);
    received.onComplete((response, failure) -> {
      if (stopped) {
        return; // the engine made what a late answer carried visible again: its caller was gone
      }
      if (failure != null) {
        runner.vertx().setTimer(runner.receiveFailed(failure) ? QUEUE_RETRY_MILLIS : BUSY_RETRY_MILLIS,
            tm -> next());
        return;
      }
      List<ReceiveMessage.Message> messages = response.messages();
      long at = System.currentTimeMillis();
      runner.noteReceive(messages.size(), wanted, at - now);
      List<BatchAssembler.Record> records = new ArrayList<>(messages.size());
      for (ReceiveMessage.Message m : messages) {
        String json = SqsEvent.record(m, runner.queue().arn(), t.queue().region());
        held.put(m.messageId(), m);
        records.add(new BatchAssembler.Record(m.messageId(), json, SqsEvent.bytesOf(json), visibleUntil));
      }
      assembler.add(records, at);
      if (assembler.ready(at)) {
        invoke(t, assembler.take(at));
      } else if (!gathering && messages.isEmpty() && runner.idleMayEnd(this)) {
        stop();
      } else {
        next();
      }
    });
  }

  private void invoke(Trigger t, List<BatchAssembler.Record> batch) {
    List<BatchAssembler.Record> passing = new ArrayList<>(batch.size());
    List<String> filteredOut = new ArrayList<>();
    for (BatchAssembler.Record r : batch) {
      if (runner.filter().passes(r.json())) {
        passing.add(r);
      } else {
        filteredOut.add(held.remove(r.messageId()).receiptHandle());
      }
    }
    Future<Integer> dropped = runner.queue().delete(filteredOut);
    runner.noteFiltered(filteredOut.size());
    if (passing.isEmpty()) {
      dropped.onComplete(done -> next());
      return;
    }
    List<String> ids = new ArrayList<>(passing.size());
    List<String> jsons = new ArrayList<>(passing.size());
    List<String> groups = t.fifo() ? new ArrayList<>(passing.size()) : null;
    long bytes = 0;
    for (BatchAssembler.Record r : passing) {
      ids.add(r.messageId());
      jsons.add(r.json());
      bytes += r.bytes();
      if (groups != null) {
        groups.add(held.get(r.messageId()).attributes().get("MessageGroupId"));
      }
    }
    if (!runner.engine().memoryBudget().tryCharge(bytes)) {
      // The server is short of memory: the batch goes back to the queue at once, never delivered.
      runner.queue().giveBack(handlesOf(ids));
      ids.forEach(held::remove);
      runner.noteMemoryRefusal(ids.size());
      runner.vertx().setTimer(BUSY_RETRY_MILLIS, tm -> next());
      return;
    }
    long charged = bytes;
    runner.invoke(SqsEvent.of(jsons), ids, oldestSentMillis(ids)).onComplete(answer -> {
      runner.engine().memoryBudget().release(charged);
      // A failed classification deletes nothing: the batch comes back after its visibility timeout.
      List<String> deletable = answer.failed() ? List.of() : answer.result().response().deletable(ids, groups);
      runner.queue().delete(handlesOf(deletable)).onComplete(late -> {
        if (answer.succeeded()) {
          runner.settled(answer.result(), ids.size(), deletable.size(), late.result());
        }
        ids.forEach(held::remove);
        next();
      });
    });
  }

  private long oldestSentMillis(List<String> ids) {
    long oldest = System.currentTimeMillis();
    for (String id : ids) {
      String sent = held.get(id).attributes().get("SentTimestamp");
      if (sent != null) {
        oldest = Math.min(oldest, Long.parseLong(sent));
      }
    }
    return oldest;
  }

  private List<String> handlesOf(List<String> ids) {
    List<String> handles = new ArrayList<>(ids.size());
    for (String id : ids) {
      handles.add(held.get(id).receiptHandle());
    }
    return handles;
  }
}
