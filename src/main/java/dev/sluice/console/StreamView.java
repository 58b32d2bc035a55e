package dev.sluice.console;

/**
 * What one stream shows (design/console.md §2.6 "The stream"): its snapshot when it opens and an
 * event after each tick. Every method runs on the history's worker.
 */
public interface StreamView {
  /** The first event; throws the error to answer instead (a queue not sampled) before the stream opens. */
  StreamEvent open(ConsoleHistory h);

  /** The event after a tick. */
  StreamEvent tick(ConsoleHistory h);

  /** The stream ended. */
  void close(ConsoleHistory h);
}
