package dev.sluice.persistence;

/**
 * Told of every batch the writer finished (committed or refused for good), on the writer's event
 * loop: how the metrics learn batch sizes and write times without persistence knowing of them.
 */
@FunctionalInterface
public interface BatchObserver {
  BatchObserver NONE = (changes, nanos) -> {};

  /** A batch of {@code changes} changes took {@code nanos} to write, retries included. */
  void written(int changes, long nanos);
}
