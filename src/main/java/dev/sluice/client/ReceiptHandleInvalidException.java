package dev.sluice.client;

/** The server no longer holds the message under this receipt handle: it was settled already, or its visibility timeout ran out and it went back to the queue (it will be delivered again). */
public class ReceiptHandleInvalidException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public ReceiptHandleInvalidException(String code, int status, String message) {
    super(code, status, message);
  }
}
