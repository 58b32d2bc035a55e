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
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fill half of the backlog benchmark (loadtest/scripts/backlog-bench.sh): sends exactly
 * {@code --messages} messages of {@code --body-bytes} with SendMessageBatch ({@code --batch}
 * entries) from {@code --users} closed loops, as fast as the server takes them. Throttled and
 * unavailable answers are retried with backoff ({@link Retrying}). Entries a batch refuses as
 * throttled (the memory budget answers so, entry by entry) or through no fault of the sender go back
 * to the pool, and their user pauses, longer each time nothing of its batch got in. Prints the
 * per-second CSV ({@link PerSecondCsv}) and one summary line.
 */
final class Fill {
  private static final long FIRST_PAUSE_MILLIS = 10;
  private static final long LONGEST_PAUSE_MILLIS = 1_000;

  private final String queueUrl;
  private final String body;
  private final int batch;
  private final Buffer fullBatch;
  private final AtomicLong unclaimed;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong resent = new AtomicLong();
  private final Retrying retrying;
  private final long giveUpNanos;

  /** One closed loop, run on its worker's event loop. */
  private static final class User {
    final Worker w;
    final Promise<Void> done = Promise.promise();
    long refusedSince; // when its batches began to be refused whole; 0 while they are not
    long pauseMillis = FIRST_PAUSE_MILLIS;

    User(Worker w) {
      this.w = w;
    }
  }

  private Fill(String queueUrl, Options o) {
    this.queueUrl = queueUrl;
    this.body = "f".repeat(o.bodyBytes());
    this.batch = o.integer("batch", 10);
    if (batch < 1 || batch > 10) {
      throw new IllegalArgumentException("--batch must be 1 to 10, got " + batch);
    }
    this.fullBatch = SqsCalls.sendBatchBody(queueUrl, body, batch);
    this.unclaimed = new AtomicLong(o.integer("messages", 100_000));
    this.retrying = new Retrying(o.integer("give-up-seconds", 120));
    this.giveUpNanos = TimeUnit.SECONDS.toNanos(o.integer("give-up-seconds", 120));
  }

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    Fill fill = new Fill(queueUrl, o);
    long messages = fill.unclaimed.get();
    long start = System.nanoTime();
    List<Future<Void>> users = new ArrayList<>();
    Exception failure;
    try (PerSecondCsv csv = new PerSecondCsv(o, fill.sent::get)) {
      for (int u = 0; u < o.users(); u++) {
        User user = new User(workers.get(u % workers.size()));
        users.add(user.done.future());
        user.w.context().runOnContext(v -> fill.send(user));
      }
      failure = LoadTest.awaitAll(users, o.integer("max-seconds", 7_200));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "fill summary: messages=%d seconds=%.2f msgs_per_s=%.0f body_bytes=%d batch=%d"
            + " users=%d throttled_retries=%d unavailable_retries=%d entries_resent=%d%n",
        fill.sent.get(), seconds, fill.sent.get() / seconds, o.bodyBytes(), fill.batch, o.users(),
        fill.retrying.throttled.get(), fill.retrying.unavailable.get(), fill.resent.get());
    if (failure != null) {
      throw failure;
    }
    if (fill.sent.get() != messages) {
      throw new IllegalStateException("sent " + fill.sent.get() + " of " + messages + " messages");
    }
  }

  /** Claims up to a batch of what is left and sends it. */
  private void send(User user) {
    int entries = (int) Math.min(batch, unclaimed.getAndUpdate(left -> Math.max(0, left - batch)));
    if (entries == 0) {
      user.done.tryComplete();
      return;
    }
    Buffer request = entries == batch ? fullBatch : SqsCalls.sendBatchBody(queueUrl, body, entries);
    retrying.call(user.w, () -> user.w.sqs.call("SendMessageBatch", request)).onComplete((answer, failure) -> {
      if (failure != null) {
        user.done.tryFail(failure);
        return;
      }
      JsonArray successful = answer.getJsonArray("Successful");
      JsonArray failed = answer.getJsonArray("Failed");
      int stored = successful == null ? 0 : successful.size();
      sent.addAndGet(stored);
      if (failed == null || failed.isEmpty()) {
        user.refusedSince = 0;
        user.pauseMillis = FIRST_PAUSE_MILLIS;
        send(user);
      } else {
        resendLater(user, failed, stored > 0);
      }
    });
  }

  private void resendLater(User user, JsonArray failed, boolean someStored) {
    for (int i = 0; i < failed.size(); i++) {
      JsonObject entry = failed.getJsonObject(i);
      String code = entry.getString("Code", "");
      if (entry.getBoolean("SenderFault", true) && !code.contains("Throttl")) {
        user.done.tryFail(new IllegalStateException("SendMessageBatch refused an entry: " + entry.encode()));
        return;
      }
    }
    unclaimed.addAndGet(failed.size());
    if (resent.getAndAdd(failed.size()) == 0) {
      System.err.println("sending again: " + failed.getJsonObject(0).encode());
    }
    long now = System.nanoTime();
    if (someStored) {
      user.refusedSince = 0;
      user.pauseMillis = FIRST_PAUSE_MILLIS;
    } else if (user.refusedSince == 0) {
      user.refusedSince = now;
    } else if (now - user.refusedSince > giveUpNanos) {
      user.done.tryFail(new IllegalStateException("every entry refused for longer than --give-up-seconds: "
          + failed.getJsonObject(0).encode()));
      return;
    } else {
      user.pauseMillis = Math.min(2 * user.pauseMillis, LONGEST_PAUSE_MILLIS);
    }
    user.w.context().owner().setTimer(user.pauseMillis, t -> send(user));
  }
}
