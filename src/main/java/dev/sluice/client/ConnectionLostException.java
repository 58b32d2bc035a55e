package dev.sluice.client;

/**
 * The connection closed before the server answered. A settle that fails with it may or may not have
 * reached the server; open subscriptions survive it (the client reconnects and subscribes again).
 */
public class ConnectionLostException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public ConnectionLostException(String message, Throwable cause) {
    super("ConnectionLost", 0, message, cause);
  }
}
