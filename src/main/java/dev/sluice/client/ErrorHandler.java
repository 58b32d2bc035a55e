package dev.sluice.client;

/** Told why a {@link Listener}'s subscription ended: a terminal error, or retries given up. */
@FunctionalInterface
public interface ErrorHandler {
  void handle(Throwable error);
}
