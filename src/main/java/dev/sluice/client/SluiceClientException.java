package dev.sluice.client;

/**
 * A request the server refused, or a connection that failed, as the client reports it. {@link #code()}
 * is the SQS error code the server named (for example {@code QueueDoesNotExist}), or the client's own
 * name for a failure that never reached the server; {@link #status()} is the HTTP status SQS would
 * have answered with, or 0 when there was no answer.
 */
public class SluiceClientException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;
  private final int status;

  public SluiceClientException(String code, int status, String message) {
    this(code, status, message, null);
  }

  public SluiceClientException(String code, int status, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.status = status;
  }

  /** The SQS error code, or the client's name for a failure the server did not answer. */
  public String code() {
    return code;
  }

  /** The HTTP status SQS would use for this refusal; 0 when the server did not answer. */
  public int status() {
    return status;
  }
}
