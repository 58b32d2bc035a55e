package dev.sluice.client;

/**
 * The delivery's subscription on the server is gone (its connection closed, the subscription was
 * cancelled or ended), and with it the hold on the message: the server gave it back to the queue and
 * it will be delivered again. The settle that fails with this was not sent, or the server answered
 * that it no longer holds the subscription.
 */
public class DeliveryLostException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public DeliveryLostException(String message) {
    super("DeliveryLost", 0, message);
  }
}
