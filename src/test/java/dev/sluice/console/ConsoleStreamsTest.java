package dev.sluice.console;

import static dev.sluice.console.Samples.key;
import static dev.sluice.console.Samples.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The live-update streams' bounds and events (design/console.md §2.6, §2.7), with ticks driven by the test. */
class ConsoleStreamsTest {
  final Vertx vertx = Vertx.vertx();
  final FakeSource source = new FakeSource();
  final HistorySampler sampler = new HistorySampler(vertx, source, 1000, 10, System::currentTimeMillis);
  final Context context = vertx.getOrCreateContext();

  @AfterEach
  void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  ConsoleStreams streams(int max, long pingMillis) throws Exception {
    ConsoleStreams s = new ConsoleStreams(sampler, max, pingMillis);
    source.queues = List.of(queue("a", 1, 0, 0, 1, 0, 0));
    tick();
    return s;
  }

  void tick() throws Exception {
    sampler.tick().await(5, TimeUnit.SECONDS);
  }

  static OverviewStream overview() {
    return new OverviewStream(OverviewQuery.DEFAULT, "http://localhost", Samples.ACCOUNT);
  }

  static void eventually(BooleanSupplier condition, String what) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > until) {
        fail(what);
      }
      Thread.sleep(5);
    }
  }

  static ErrorCode refusal(Future<Void> opened) throws Exception {
    try {
      opened.await(5, TimeUnit.SECONDS);
      return null;
    } catch (SqsException e) {
      return e.code();
    }
  }

  @Test
  void aStreamBeginsWithItsSnapshotAndGetsATickPerSample() throws Exception {
    ConsoleStreams streams = streams(2, 60_000);
    RecordingSink sink = new RecordingSink();
    streams.open(context, sink, overview()).await(5, TimeUnit.SECONDS);
    assertTrue(sink.begun);
    assertTrue(sink.frames.get(0).startsWith("event: snapshot\ndata: {"), sink.frames.get(0));
    tick();
    tick();
    eventually(() -> sink.count("event: tick\n") == 2, "two ticks: " + sink.frames);
  }

  @Test
  void beyondTheBoundAStreamIsRefusedAndAClosedOneFreesItsSlotAtOnce() throws Exception {
    ConsoleStreams streams = streams(2, 60_000);
    RecordingSink first = new RecordingSink();
    streams.open(context, first, overview()).await(5, TimeUnit.SECONDS);
    streams.open(context, new RecordingSink(), overview()).await(5, TimeUnit.SECONDS);
    assertEquals(ErrorCode.TOO_MANY_STREAMS, refusal(streams.open(context, new RecordingSink(), overview())));
    assertEquals(2, streams.openStreams());
    context.runOnContext(v -> first.closed.run()); // the browser went away
    eventually(() -> streams.openStreams() == 1, "the slot freed");
    assertEquals(null, refusal(streams.open(context, new RecordingSink(), overview())));
  }

  @Test
  void aFullWriteQueueSkipsTicksAndTwelveInARowEndTheStream() throws Exception {
    ConsoleStreams streams = streams(2, 60_000);
    RecordingSink sink = new RecordingSink();
    streams.open(context, sink, overview()).await(5, TimeUnit.SECONDS);
    sink.full = true;
    for (int i = 0; i < 11; i++) {
      tick();
    }
    sink.full = false;
    tick();
    eventually(() -> sink.count("event: tick") == 1, "the queue drained: written again");
    sink.full = true;
    for (int i = 0; i < ConsoleStreams.MAX_SKIPPED_TICKS - 1; i++) {
      tick();
    }
    Thread.sleep(50);
    assertFalse(sink.ended, "eleven skipped in a row");
    tick();
    eventually(() -> sink.ended && streams.openStreams() == 0, "twelve skipped in a row: ended");
    assertEquals(1, sink.count("event: tick"));
  }

  @Test
  void aQueueStreamSaysGoneWhenItsQueueIsDeletedAndEnds() throws Exception {
    ConsoleStreams streams = streams(2, 60_000);
    RecordingSink sink = new RecordingSink();
    streams.open(context, sink, new QueueStream(key("a"), "http://localhost")).await(5, TimeUnit.SECONDS);
    assertTrue(sink.frames.get(0).contains("\"history\":{"), sink.frames.get(0));
    source.queues = List.of();
    tick();
    eventually(() -> sink.ended, "ended");
    assertTrue(sink.frames.get(1).startsWith("event: gone\ndata: {"), sink.frames.toString());
    assertEquals(0, streams.openStreams());
  }

  @Test
  void aConnectionGoneBeforeItsSnapshotFreesItsSlot() throws Exception {
    ConsoleStreams streams = streams(1, 60_000);
    RecordingSink gone = new RecordingSink();
    gone.goneEarly = true;
    streams.open(context, gone, overview()).await(5, TimeUnit.SECONDS);
    eventually(() -> streams.openStreams() == 0, "its slot is free again");
    assertFalse(gone.begun, "nothing was written to a connection that is gone");
    streams.open(context, new RecordingSink(), overview()).await(5, TimeUnit.SECONDS);
    assertEquals(1, streams.openStreams(), "the one slot serves the next stream");
  }

  @Test
  void aQueueNotSampledYetGetsItsSnapshotWithTheFirstTickThatHasItOrIsGoneAfterTwo() throws Exception {
    ConsoleStreams streams = streams(2, 60_000);
    RecordingSink made = new RecordingSink();
    streams.open(context, made, new QueueStream(key("b"), "http://localhost")).await(5, TimeUnit.SECONDS);
    assertEquals(List.of(), made.frames, "nothing to show before a tick has the queue");
    source.queues = List.of(queue("a", 1, 0, 0, 1, 0, 0), queue("b", 3, 0, 0, 3, 0, 0));
    tick();
    eventually(() -> made.frames.size() == 1, "the snapshot");
    assertTrue(made.frames.get(0).startsWith("event: snapshot\ndata: {\"row\":{"), made.frames.toString());
    tick();
    eventually(() -> made.count("event: tick") == 1, "then ticks");

    RecordingSink missing = new RecordingSink();
    streams.open(context, missing, new QueueStream(key("never"), "http://localhost")).await(5, TimeUnit.SECONDS);
    tick();
    Thread.sleep(50);
    assertFalse(missing.ended, "one tick without it: it may have been sampling before the queue was made");
    tick();
    eventually(() -> missing.ended, "two ticks without it: it does not exist");
    assertEquals(1, missing.frames.size(), missing.frames.toString());
    assertTrue(missing.frames.get(0).startsWith("event: gone\n"), missing.frames.toString());
    assertEquals(1, streams.openStreams(), "the ended stream freed its slot");
  }

  @Test
  void anOpenStreamIsPingedEveryInterval() throws Exception {
    ConsoleStreams streams = streams(2, 40);
    RecordingSink sink = new RecordingSink();
    streams.open(context, sink, overview()).await(5, TimeUnit.SECONDS);
    eventually(() -> sink.count(": ping\n\n") >= 2, "pinged");
  }

  @Test
  void stoppingEndsEveryStreamAndRefusesNewOnes() throws Exception {
    ConsoleStreams streams = streams(4, 60_000);
    RecordingSink a = new RecordingSink();
    RecordingSink b = new RecordingSink();
    streams.open(context, a, overview()).await(5, TimeUnit.SECONDS);
    streams.open(context, b, overview()).await(5, TimeUnit.SECONDS);
    streams.stop().await(5, TimeUnit.SECONDS);
    assertTrue(a.ended && b.ended);
    assertEquals(0, streams.openStreams());
    assertEquals(ErrorCode.SERVICE_UNAVAILABLE, refusal(streams.open(context, new RecordingSink(), overview())));
  }
}
