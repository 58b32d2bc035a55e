package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The drain half of the backlog benchmark (loadtest/scripts/backlog-bench.sh): {@code --users}
 * closed loops of ReceiveMessage (10, WaitTimeSeconds {@code --wait-seconds}) then
 * DeleteMessageBatch, until the queue is empty: every user has had {@code --empty-receives}
 * empty answers in a row, and GetQueueAttributes then counts no visible, in-flight or delayed
 * message. Counts deliveries of a MessageId already received as duplicates. Prints the per-second
 * CSV of deleted messages ({@link PerSecondCsv}) and one summary line; its rate runs to the last
 * deletion, not to the end of the empty receives that prove the queue empty.
 */
final class Drain {
  private final String queueUrl;
  private final Buffer receive;
  private final int emptiesForIdle;
  private final Retrying retrying;
  private final SeenIds seen = new SeenIds();
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong deleteFailures = new AtomicLong();
  private final AtomicLong emptyReceives = new AtomicLong();
  private final AtomicLong lastDeletionNanos = new AtomicLong();
  private final AtomicInteger idleUsers = new AtomicInteger();
  private volatile boolean stopping;

  private Drain(String queueUrl, Options o) {
    this.queueUrl = queueUrl;
    this.receive = SqsCalls.receiveBody(queueUrl, 10, o.integer("wait-seconds", 1));
    this.emptiesForIdle = o.integer("empty-receives", 3);
    this.retrying = new Retrying(o.integer("give-up-seconds", 120));
  }

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    Drain drain = new Drain(queueUrl, o);
    int users = o.users();
    long start = System.nanoTime();
    drain.lastDeletionNanos.set(start);
    long deadline = start + TimeUnit.SECONDS.toNanos(o.integer("max-seconds", 7_200));
    boolean empty = false;
    Exception failure;
    List<Future<Void>> loops = new ArrayList<>();
    try (PerSecondCsv csv = new PerSecondCsv(o, drain.deleted::get)) {
      for (int u = 0; u < users; u++) {
        Worker w = workers.get(u % workers.size());
        Promise<Void> done = Promise.promise();
        loops.add(done.future());
        int[] empties = {0};
        w.context().runOnContext(v -> drain.receive(w, empties, done));
      }
      while (!empty && System.nanoTime() < deadline && loops.stream().noneMatch(Future::failed)) {
        Thread.sleep(200);
        empty = drain.idleUsers.get() == users && drain.queueEmpty(workers.get(0).sqs);
      }
      drain.stopping = true;
      failure = LoadTest.awaitAll(loops, o.integer("wait-seconds", 1) + 60L);
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    double seconds = (drain.lastDeletionNanos.get() - start) / 1e9;
    System.out.printf(Locale.ROOT, "drain summary: received=%d duplicates=%d deleted=%d delete_failures=%d"
            + " seconds=%.2f msgs_per_s=%.0f elapsed_seconds=%.2f empty_receives=%d users=%d throttled_retries=%d"
            + " unavailable_retries=%d queue_empty=%s%n",
        drain.received.get(), drain.duplicates.get(), drain.deleted.get(), drain.deleteFailures.get(), seconds,
        seconds > 0 ? drain.deleted.get() / seconds : 0.0, elapsed, drain.emptyReceives.get(), users,
        drain.retrying.throttled.get(), drain.retrying.unavailable.get(), empty);
    if (failure != null) {
      throw failure;
    }
    if (!empty) {
      throw new IllegalStateException("the queue was not empty after --max-seconds");
    }
  }

  /**
   * Asked from the main thread, through the workers' connection pool, where it waits for a
   * connection behind the users' long polls: once (of several hundred runs) no answer came within
   * 30 s. A check that gets no answer in time counts as "not known empty yet" and is asked again
   * at the next look, within --max-seconds, instead of failing the whole run.
   */
  private boolean queueEmpty(SqsCalls sqs) throws Exception {
    JsonObject answer;
    try {
      answer = sqs.call("GetQueueAttributes", new JsonObject().put("QueueUrl", queueUrl)
              .put("AttributeNames", new JsonArray().add("ApproximateNumberOfMessages")
                  .add("ApproximateNumberOfMessagesNotVisible").add("ApproximateNumberOfMessagesDelayed")))
          .await(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException noAnswer) {
      System.err.println("drain: GetQueueAttributes got no answer within 10 s; asking again");
      return false;
    }
    JsonObject attributes = answer.getJsonObject("Attributes");
    return attributes.fieldNames().stream().allMatch(name -> Long.parseLong(attributes.getString(name)) == 0);
  }

  /** One user's loop, on its worker's event loop; {@code empties} counts its empty answers in a row. */
  private void receive(Worker w, int[] empties, Promise<Void> done) {
    if (stopping) {
      done.tryComplete();
      return;
    }
    retrying.call(w, () -> w.sqs.call("ReceiveMessage", receive)).onComplete((answer, failure) -> {
      if (failure != null) {
        done.tryFail(failure);
        return;
      }
      JsonArray messages = answer.getJsonArray("Messages");
      if (messages == null || messages.isEmpty()) {
        emptyReceives.incrementAndGet();
        if (++empties[0] == emptiesForIdle) {
          idleUsers.incrementAndGet();
        }
        receive(w, empties, done);
        return;
      }
      if (empties[0] >= emptiesForIdle) {
        idleUsers.decrementAndGet();
      }
      empties[0] = 0;
      received.addAndGet(messages.size());
      for (int i = 0; i < messages.size(); i++) {
        if (!seen.add(messages.getJsonObject(i).getString("MessageId"))) {
          duplicates.incrementAndGet();
        }
      }
      Buffer delete = SqsCalls.deleteBatchBody(queueUrl, answer);
      retrying.call(w, () -> w.sqs.call("DeleteMessageBatch", delete)).onComplete((result, deleteFailure) -> {
        if (deleteFailure != null) {
          done.tryFail(deleteFailure);
          return;
        }
        JsonArray failed = result.getJsonArray("Failed");
        deleteFailures.addAndGet(failed == null ? 0 : failed.size());
        deleted.addAndGet(result.getJsonArray("Successful").size());
        lastDeletionNanos.accumulateAndGet(System.nanoTime(), Math::max);
        receive(w, empties, done);
      });
    });
  }
}
