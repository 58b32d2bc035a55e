package dev.sluice.client;

/**
 * A running callback subscription ({@link SluiceClient#listen}): it holds up to the subscription's
 * {@code maxUnacknowledged} deliveries and takes one more each time one is settled, as a push
 * subscriber without Mutiny sees it.
 */
public interface Listener extends AutoCloseable {
  /** Ends the subscription; its unacknowledged messages go back to the queue at once. */
  @Override
  void close();
}
