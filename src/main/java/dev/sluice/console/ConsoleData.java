package dev.sluice.console;

import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * What the console's pages read beside the SQS API: the sampler's history and the live-update
 * streams fed from it (design/console.md §2.4, §2.7). Made once the queues are recovered; ended
 * when the server stops, streams first, so that no stream holds the stop.
 */
public record ConsoleData(HistorySampler sampler, ConsoleStreams streams) {
  /** Starts sampling every {@code sampleMillis}, keeping at most {@code historySeries} series. */
  public static ConsoleData start(Vertx vertx, QueueEngine engine, int sampleMillis, int historySeries,
      int maxStreams) {
    HistorySampler sampler = HistorySampler.of(vertx, engine, sampleMillis, historySeries);
    ConsoleStreams streams = new ConsoleStreams(sampler, maxStreams);
    sampler.start();
    return new ConsoleData(sampler, streams);
  }

  /** Ends every stream, then stops sampling. */
  public Future<Void> stop() {
    return streams.stop().transform(ignored -> sampler.stop());
  }
}
