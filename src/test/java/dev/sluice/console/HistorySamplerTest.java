package dev.sluice.console;

import static dev.sluice.console.Samples.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sampler's ticks on a real Vert.x: timed, skipped while one is unfinished, given up when unanswered. */
class HistorySamplerTest {
  final Vertx vertx = Vertx.vertx();
  final FakeSource source = new FakeSource();

  @AfterEach
  void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void aTickFindingTheLastUnfinishedIsSkipped() throws Exception {
    HistorySampler sampler = new HistorySampler(vertx, source, 60_000, 10, System::currentTimeMillis);
    source.held = Promise.promise();
    Future<Void> first = sampler.tick();
    sampler.tick().await(5, TimeUnit.SECONDS);
    assertEquals(1, sampler.skippedTicks());
    assertFalse(first.isComplete());
    source.held.complete(List.of(queue("a", 1, 0, 0, 0, 0, 0)));
    first.await(5, TimeUnit.SECONDS);
    assertEquals(1, (int) sampler.read(h -> h.queues().size()).await(5, TimeUnit.SECONDS));
    assertEquals(1, sampler.series());
    assertEquals(120 + 128 + 16 + 4 * 720 + 16 + 4 * 360, sampler.retainedBytes());
  }

  @Test
  void readsWaitingForTheWorkerAreBoundedAndRefusedRetryablyBeyond() throws Exception {
    HistorySampler sampler = new HistorySampler(vertx, source, 60_000, 10, System::currentTimeMillis);
    CountDownLatch release = new CountDownLatch(1);
    List<Future<Long>> waiting = new ArrayList<>();
    for (int i = 0; i < HistorySampler.MAX_PENDING_READS; i++) {
      waiting.add(sampler.read(h -> {
        try {
          release.await(10, TimeUnit.SECONDS); // the first holds the worker; the rest queue behind it
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return h.tick();
      }));
    }
    Future<Long> refused = sampler.read(ConsoleHistory::tick);
    assertTrue(refused.failed(), "one read more than the bound is refused at once");
    assertEquals(ErrorCode.SERVICE_UNAVAILABLE, ((SqsException) refused.cause()).code());
    release.countDown();
    Future.all(waiting).await(10, TimeUnit.SECONDS);
    assertEquals(-1L, (long) sampler.read(ConsoleHistory::tick).await(5, TimeUnit.SECONDS), "answered again once drained");
  }

  @Test
  void aReadingNeverAnsweredIsGivenUpAndTheNextTickRuns() throws Exception {
    HistorySampler sampler = new HistorySampler(vertx, source, 100, 10, System::currentTimeMillis);
    source.held = Promise.promise(); // a shard that never answers
    long started = System.nanoTime();
    sampler.tick().otherwiseEmpty().await(5, TimeUnit.SECONDS);
    assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(200), "after two ticks' time");
    assertEquals(1, sampler.abandonedTicks());
    source.held = null;
    source.queues = List.of(queue("a", 1, 0, 0, 0, 0, 0));
    sampler.tick().await(5, TimeUnit.SECONDS);
    assertEquals(1, (int) sampler.read(h -> h.queues().size()).await(5, TimeUnit.SECONDS));
  }

  @Test
  void startedItTicksEveryIntervalUntilStopped() throws Exception {
    HistorySampler sampler = new HistorySampler(vertx, source, 20, 10, System::currentTimeMillis);
    source.queues = List.of(queue("a", 1, 0, 0, 0, 0, 0));
    sampler.start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (sampler.read(ConsoleHistory::tick).await(5, TimeUnit.SECONDS) < 5 && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertTrue(sampler.read(ConsoleHistory::tick).await(5, TimeUnit.SECONDS) >= 5, "ticked on its timer");
    sampler.stop().await(5, TimeUnit.SECONDS);
    assertTrue(sampler.read(ConsoleHistory::tick).otherwiseEmpty().await(5, TimeUnit.SECONDS) == null,
        "its worker is closed once stopped");
  }
}
