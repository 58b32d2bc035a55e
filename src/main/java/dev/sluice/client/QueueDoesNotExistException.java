package dev.sluice.client;

/** The queue does not exist: it was never created, or was deleted while subscribed. Terminal. */
public class QueueDoesNotExistException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public QueueDoesNotExistException(String code, int status, String message) {
    super(code, status, message);
  }
}
