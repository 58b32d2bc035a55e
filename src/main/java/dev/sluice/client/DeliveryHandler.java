package dev.sluice.client;

/**
 * Handles one delivery of a {@link Listener}; it should settle it ({@link Delivery#ack()} or
 * {@link Delivery#nack}), which also lets the listener take one more. A handler that throws has its
 * delivery nacked at once, so the message comes again.
 */
@FunctionalInterface
public interface DeliveryHandler {
  void handle(Delivery delivery) throws Exception;
}
