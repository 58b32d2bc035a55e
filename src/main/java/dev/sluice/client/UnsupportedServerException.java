package dev.sluice.client;

/**
 * The server does not speak demand-driven credit: it did not echo {@code "credit": "demand"} on
 * subscribe (an older Sluice), or it pushed more than it was granted. Terminal.
 */
public class UnsupportedServerException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public UnsupportedServerException(String message) {
    super("UnsupportedServer", 0, message);
  }
}
