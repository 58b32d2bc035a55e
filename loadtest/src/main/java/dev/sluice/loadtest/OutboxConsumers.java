package dev.sluice.loadtest;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Consumers of the latency phase, as a service reads a queue: ReceiveMessage (10 messages,
 * WaitTimeSeconds 20) then DeleteMessageBatch of what came, in closed loops spread over the
 * workers. Each message's arrival is noted in the {@link OutboxTimeline} as soon as the receive is
 * answered, before the delete. There are enough of them when the receives come back mostly short
 * of 10 and the queue's visible count stays near 0 (the probe reports both): then a row waits on the
 * relay, not on a consumer.
 */
final class OutboxConsumers {
  private final String queueUrl;
  private final Buffer receive;
  private final OutboxTimeline timeline;
  private final AtomicBoolean running = new AtomicBoolean(true);
  final AtomicLong receives = new AtomicLong();
  final AtomicLong messages = new AtomicLong();
  final AtomicLong fullReceives = new AtomicLong();
  final AtomicLong errors = new AtomicLong();

  private OutboxConsumers(String queueUrl, OutboxTimeline timeline) {
    this.queueUrl = queueUrl;
    this.receive = SqsCalls.receiveBody(queueUrl, 10, 20);
    this.timeline = timeline;
  }

  static OutboxConsumers start(List<Worker> workers, String queueUrl, OutboxTimeline timeline, int consumers) {
    OutboxConsumers c = new OutboxConsumers(queueUrl, timeline);
    for (int i = 0; i < consumers; i++) {
      Worker w = workers.get(i % workers.size());
      w.context().runOnContext(v -> c.next(w));
    }
    return c;
  }

  /** No new receive starts; those parked come back within their 20 s, or end with the load generator. */
  void stop() {
    running.set(false);
  }

  double messagesPerReceive() {
    return receives.get() == 0 ? 0 : messages.get() / (double) receives.get();
  }

  private void next(Worker w) {
    if (!running.get()) {
      return;
    }
    w.sqs.call("ReceiveMessage", receive).onComplete((answer, failure) -> {
      long now = System.nanoTime();
      if (failure != null) {
        retryLater(w, failure);
        return;
      }
      receives.incrementAndGet();
      JsonArray got = answer.getJsonArray("Messages");
      if (got == null || got.isEmpty()) {
        next(w);
        return;
      }
      messages.addAndGet(got.size());
      if (got.size() == 10) {
        fullReceives.incrementAndGet();
      }
      for (int i = 0; i < got.size(); i++) {
        timeline.received(got.getJsonObject(i).getString("Body"), now);
      }
      w.sqs.call("DeleteMessageBatch", SqsCalls.deleteBatchBody(queueUrl, answer)).onComplete((deleted, f) -> {
        if (f != null) {
          retryLater(w, f);
        } else {
          next(w);
        }
      });
    });
  }

  /** A failed call is reported (the first few) and the loop goes on after a pause: a benchmark's consumer does not quit. */
  private void retryLater(Worker w, Throwable failure) {
    if (!running.get()) {
      return; // the load generator closing its connections under the parked polls
    }
    if (errors.incrementAndGet() <= 3) {
      System.err.println("outbox consumer: " + failure.getMessage());
    }
    w.context().owner().setTimer(100, t -> next(w));
  }
}
