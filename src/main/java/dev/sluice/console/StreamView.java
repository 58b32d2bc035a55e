package dev.sluice.console;

/**
 * What one stream shows (design/console.md §2.6 "The stream"): its snapshot when it opens and an
 * event after each tick. Every method runs on the history's worker.
 */
public interface StreamView {
  /** The first event, or null when there is none yet; throws the error to answer instead of opening. */
  StreamEvent open(ConsoleHistory h);

  /** The event after a tick, or null for none. */
  StreamEvent tick(ConsoleHistory h);

  /** The stream ended. */
  void close(ConsoleHistory h);
}
